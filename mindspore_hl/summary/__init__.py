"""summary."""
__all__ = []
