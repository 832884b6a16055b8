"""nn/loss."""
__all__ = []
