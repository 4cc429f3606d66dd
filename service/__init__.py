"""A stateless referee for tower-building board games."""

__version__ = "0.1.0"
