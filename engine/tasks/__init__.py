"""Toy tasks the engine trains on."""
