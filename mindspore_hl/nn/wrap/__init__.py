"""nn/wrap."""
__all__ = []
