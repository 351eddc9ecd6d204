"""Reading the PGN files `panoply match` writes: shared by the game-summary scripts."""
import re


def games_of(path):
    """The games of a PGN file, each as its text (tags and movetext)."""
    text = open(path, encoding="utf-8").read()
    return [g for g in re.split(r"\n(?=\[Event )", text) if g.strip()]


def tag(game, name):
    """A tag's value in one game's text, or None."""
    m = re.search(r'\[%s "([^"]*)"\]' % name, game)
    return m.group(1) if m else None
