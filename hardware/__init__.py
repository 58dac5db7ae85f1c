"""Devices behind small interfaces, as gpiozero does it: a frame source, a button, an
LED, each with a real implementation and a swappable back end, so the appliance runs
the same code on a Raspberry Pi, a laptop with a webcam, and a recorded session."""
