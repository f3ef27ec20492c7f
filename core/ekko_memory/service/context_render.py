"""Placeholder replaced by the read-side issue."""
