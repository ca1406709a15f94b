"""The sign-up form: Django's, refusing a name that an account, a live guest or a reserved
word holds as it looks (players/names.py)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm

from players.name_claims import NameTaken, check_free


class SignupForm(UserCreationForm):
    def __init__(self, *args: object, session_key: str | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.session_key = session_key  # the guest signing up may keep their own nickname

    def clean_username(self) -> str:
        username = super().clean_username()
        try:
            check_free(username, session_key=self.session_key)
        except NameTaken as exc:
            raise forms.ValidationError(exc.message, code="name_taken") from None
        return username
