"""The site's own origins: the public address, the address the front end was built for, loopback on the port."""

from __future__ import annotations

from services.core.origins import site_origins


def test_the_public_address_and_loopback_only() -> None:
    env = {"PUBLIC_URL": "https://Liga.Example.ru/", "REFLEX_API_URL": "https://liga.example.ru", "PORT": "3000"}
    assert site_origins(env) == ["https://liga.example.ru", "http://127.0.0.1:3000", "http://localhost:3000"]


def test_without_a_public_address_the_built_address_and_the_port() -> None:
    env = {"REFLEX_API_URL": "http://127.0.0.1:4123", "PORT": "4123"}
    assert site_origins(env) == ["http://127.0.0.1:4123", "http://localhost:4123"]
    assert site_origins({}) == ["http://127.0.0.1:3000", "http://localhost:3000"]


def test_nothing_that_is_not_an_http_origin() -> None:
    origins = site_origins({"PUBLIC_URL": "null", "REFLEX_API_URL": "file:///x", "PORT": "80"})
    assert origins == ["http://127.0.0.1", "http://localhost"]
    assert "*" not in origins and "null" not in origins
