"""Names nobody can borrow: a guest's nickname against live guests, accounts and reserved
words, compared as they look (exact, case, confusables); sign-up the same way round."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.test import Client

from games.domain.identity import NICKNAME_KEY
from players.name_claims import AccountName, GuestName
from players.names import is_reserved, name_key

pytestmark = pytest.mark.django_db

CYRILLIC_E = "\u0435"


@pytest.mark.parametrize(
    "a, b",
    [("Wes", "wes"), ("Wes", "WES"), ("Wes", f"W{CYRILLIC_E}s"), ("Wes", "\uff37es"),
     ("Bill", "BilI"), ("Bill", "Bi11"), ("Oscar", "0scar"), ("mary", "rnary"),
     ("Mia", "MIA"), ("Kim", "KIM")],
)  # fmt: skip
def test_names_that_look_alike_share_a_key(a, b):
    assert name_key(a) == name_key(b)


def test_names_that_differ_keep_their_keys_apart():
    assert len({name_key(n) for n in ("Wes", "Wesley", "Ada", "ada2", "Bob")}) == 5


@pytest.mark.parametrize("name", ["Computer", "c0mputer", "COMPUTER", "admin", "Admin_2",
                                  "moderator", "hard", "Expert", "free", "guest"])  # fmt: skip
def test_reserved_words_and_their_look_alikes_are_reserved(name):
    assert is_reserved(name)


def sign_on(client: Client, name: str) -> str:
    """The nickname form; the nickname the session holds afterwards ("" if refused)."""
    client.post("/nickname/", {"nickname": name})
    return client.session.get(NICKNAME_KEY, "")


def test_a_live_guests_nickname_is_taken_exactly_and_in_any_case():
    assert sign_on(Client(), "Ada") == "Ada"
    for attempt in ("Ada", "ada", "ADA", "aDa"):
        other = Client()
        refused = other.post("/nickname/", {"nickname": attempt})
        assert other.session.get(NICKNAME_KEY, "") == ""
        assert refused.status_code == 400  # the reason stands beside the field
        assert "A guest is playing as" in refused.content.decode()
    assert GuestName.objects.get(key=name_key("ada")).name == "Ada"


def test_an_accounts_name_cannot_be_a_guests_even_with_a_cyrillic_letter():
    User.objects.create_user("Wes", password="pw-for-wes-123")
    assert AccountName.objects.get(user__username="Wes").key == "wes"
    for attempt in ("Wes", "wes", "WES"):  # the nickname form takes ASCII only
        assert sign_on(Client(), attempt) == ""
    password = "a-long-pass-42x"
    signup = Client().post(
        "/accounts/signup/",
        {"username": f"W{CYRILLIC_E}s", "password1": password, "password2": password},
    )
    assert signup.status_code == 200 and "an account" in signup.content.decode()
    assert not User.objects.filter(username=f"W{CYRILLIC_E}s").exists()


def test_reserved_nicknames_are_refused_and_leave_no_session_behind():
    for attempt in ("Computer", "admin", "Moderator", "hard"):
        client = Client()
        refused = client.post("/nickname/", {"nickname": attempt})
        assert not Session.objects.exists()  # (a program signing on sees it was refused)
        assert refused.status_code == 400 and "is reserved" in refused.content.decode()


def test_a_name_comes_free_when_its_guest_leaves_or_their_session_ends():
    first = Client()
    assert sign_on(first, "Zed") == "Zed"
    first.post("/sign-off/")
    second = Client()
    assert sign_on(second, "zed") == "zed"  # signed off: free
    Session.objects.filter(session_key=second.session.session_key).delete()
    assert sign_on(Client(), "ZED") == "ZED"  # the session ended: free


def test_a_guest_may_change_their_own_nickname_and_frees_the_old_one():
    client = Client()
    assert sign_on(client, "Kim") == "Kim"
    assert sign_on(client, "KIM") == "KIM"
    assert sign_on(client, "Lee") == "Lee"
    assert sign_on(Client(), "kim") == "kim"


def test_signup_refuses_a_live_guests_name_but_the_guest_may_keep_their_own():
    guest = Client()
    assert sign_on(guest, "Mia") == "Mia"
    password = "a-long-pass-42x"
    other = Client().post(
        "/accounts/signup/", {"username": "mia", "password1": password, "password2": password}
    )
    assert other.status_code == 200 and "A guest is playing as" in other.content.decode()
    own = guest.post(
        "/accounts/signup/", {"username": "Mia", "password1": password, "password2": password}
    )
    assert own.status_code == 302 and User.objects.filter(username="Mia").exists()
    assert not GuestName.objects.filter(key=name_key("mia")).exists()  # now the account's
    assert sign_on(Client(), "MIA") == ""


def test_signup_refuses_reserved_names():
    password = "a-long-pass-42x"
    answer = Client().post(
        "/accounts/signup/", {"username": "Computer", "password1": password, "password2": password}
    )
    assert answer.status_code == 200 and "is reserved" in answer.content.decode()
