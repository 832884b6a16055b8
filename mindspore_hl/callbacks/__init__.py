"""callbacks."""
__all__ = []
