"""Development tools run from a checkout (the tests run them too); no part of the product,
which imports nothing of them and ships without them (the image holds ``services/`` alone)."""
