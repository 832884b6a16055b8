"""metrics."""
__all__ = []
