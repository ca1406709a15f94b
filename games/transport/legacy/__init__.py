"""The legacy binary TCP protocol (docs/legacy-protocol.md), served beside daphne."""
