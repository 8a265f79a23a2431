"""What Koryŏ and Chosŏn share: the majority rules, the adapter both
games' sessions run on, the controller of their screens."""
