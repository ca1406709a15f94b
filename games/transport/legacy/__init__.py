"""Seed 001's binary TCP protocol (docs/legacy-protocol.md), served beside daphne."""
