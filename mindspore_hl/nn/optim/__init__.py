"""nn/optim."""
__all__ = []
