"""The worker: timers, stand-ins for absent players, and the AI players (README.md)."""
