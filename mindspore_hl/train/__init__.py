"""train."""
__all__ = []
