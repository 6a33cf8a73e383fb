"""The rule books (RULES.md, THIRTY-ONE.md) as the package ``tenpennies.rulebooks`` (pyproject.toml), so that the
game reads them as resources wherever it is installed (client/rulebook.py). Nothing here is code."""
