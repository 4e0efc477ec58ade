"""Task modules: one per benchmark task, registered in tasks/registry.py."""
