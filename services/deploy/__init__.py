"""Deployment helpers run by the image's entry points (``scripts/entrypoint.sh``)."""
