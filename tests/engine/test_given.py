"""What the host gives the engine: given bytes come back as given, and a made file is made from the
prose given, again for new prose, and not again when earlier prose comes back."""
import pytest

from engine import given


@pytest.fixture
def made(monkeypatch):
    """A made file whose making is counted: what it was made from, in upper case."""
    calls = []

    def shout():
        calls.append(1)
        return given.get(given.SERIES).upper()

    monkeypatch.setattr(given, "MADE", {"shout": f"{__name__}:SHOUT"})
    monkeypatch.setitem(globals(), "SHOUT", shout)
    monkeypatch.setattr(given, "_given", {})
    monkeypatch.setattr(given, "_made", {})
    return calls


def test_a_made_file_follows_the_prose_and_is_made_once_per_prose(made):
    with pytest.raises(LookupError, match="'shout'"):
        given.get("shout")
    given.give(given.SERIES, b"one")
    assert given.get("shout") == b"ONE" and given.get("shout") == b"ONE"
    given.give(given.SERIES, b"two")
    assert given.get("shout") == b"TWO"
    given.give(given.SERIES, b"one")
    assert given.get("shout") == b"ONE" and len(made) == 2
    assert given.digest("shout") != given.digest(given.SERIES)


def test_a_file_the_page_gives_wins_until_new_prose(made, tmp_path):
    given.give(given.SERIES, b"one")
    (tmp_path / "f").write_bytes(b"fetched")
    given.give_file("shout", str(tmp_path / "f"))
    assert given.get("shout") == b"fetched" and not made
    given.give(given.SERIES, b"two")  # a build's new prose: the fetched file was made from other prose
    assert given.get("shout") == b"TWO"


def test_while_drafting_a_made_file_outlives_new_prose_until_its_code_changes(made, monkeypatch):
    monkeypatch.setattr(given, "_drafting", False)
    given.keep_made()
    given.give(given.SERIES, b"one")
    assert given.get("shout") == b"ONE"
    given.give(given.SERIES, b"two")  # a sentence saved under serve: no making again
    assert given.get("shout") == b"ONE" and len(made) == 1
    given.forget_made()  # its code changed: made from the prose as it is
    assert given.get("shout") == b"TWO" and len(made) == 2
    given.keep_made(False)
    given.give(given.SERIES, b"three")
    assert given.get("shout") == b"THREE"
