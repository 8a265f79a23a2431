"""The Koryŏ and Chosŏn screens (they share all but the setup)."""
