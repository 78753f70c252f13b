"""Everything that starts, drives or watches the product: its services as local processes,
the whole stack against the local Telegram, the scripted people who play there, and
``make play``'s launcher (README.md)."""
