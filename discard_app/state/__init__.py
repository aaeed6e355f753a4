"""Reflex states shared by several pages."""
