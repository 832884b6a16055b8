"""model."""
__all__ = []
