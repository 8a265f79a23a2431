"""The ``phones:`` section of the configuration: off by default, checked by check-config."""

from __future__ import annotations

import pytest
from test_config import GOOD, write

import companion.config as cfg
from companion.cli import main
from companion.config import load_config
from companion.files.yamlsrc import SourceErrors


def test_phones_are_off_by_default(tmp_path):
    assert load_config(write(tmp_path, GOOD)).phones == cfg.PhonesConfig()
    assert cfg.PhonesConfig().enabled is False
    assert load_config(cfg.SHIPPED_CONFIG).phones.enabled is False


def test_phones_section_read(tmp_path, capsys):
    f = write(tmp_path, GOOD + "phones: {enabled: yes, port: 8471, address: 192.168.1.20}\n")
    phones = load_config(f).phones
    assert phones == cfg.PhonesConfig(True, 8471, "0.0.0.0", "192.168.1.20")
    assert main(["check-config", str(f)]) == 0
    assert capsys.readouterr().out.strip().endswith("backend sim, phones on port 8471")


@pytest.mark.parametrize(("section", "expected"), [
    ("{enabled: 1}", "phones.enabled: expected yes or no, got 1"),
    ("{enabled: yes, port: 80}", "phones.port: 80 is below the minimum 1024"),
    ("{enabled: yes, port: 70000}", "phones.port: 70000 is above the maximum 65535"),
    ("{enabled: yes, port: 'x'}", "phones.port: expected a whole number"),
    ("{enabled: yes, address: kiosk.local}",
     "phones.address: 'kiosk.local' is not an IP address"),
    ("{enabled: yes, listen: '0.0.0'}", "phones.listen: '0.0.0' is not an IP address"),
    ("{enabeld: yes}", "phones.enabeld: unknown key (did you mean 'enabled'?)"),
    ("yes", "phones: expected a mapping"),
])
def test_phones_mistakes_named_with_their_field(tmp_path, section, expected):
    f = write(tmp_path, GOOD + f"phones: {section}\n")
    with pytest.raises(SourceErrors) as caught:
        load_config(f)
    assert expected in str(caught.value)
