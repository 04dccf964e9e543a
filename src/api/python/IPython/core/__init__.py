"""``IPython.core``: only the display formatter and the old ``IPython.core.display`` names."""
