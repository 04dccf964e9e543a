"""``IPython.core.display_functions``: where IPython 8 defines ``display`` and friends."""

from IPython.display import DisplayHandle, clear_output, display, publish_display_data, update_display

__all__ = ["DisplayHandle", "clear_output", "display", "publish_display_data", "update_display"]
