"""Thirty-One: the rules (docs/THIRTY-ONE.md, numbered T31-x.y), its commands, events, views and bots."""
