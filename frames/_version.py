"""The package version (one place; read by frames/__init__.py and the report)."""

__version__ = "0.1.0"
