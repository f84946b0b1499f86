"""Playbook review: a firm's positions checked against a contract, one cited finding each.

The data shapes live in :mod:`.model`; reading playbooks (YAML, a .docx table), recording and
validating findings, and writing the issues list each have their own module. No Qt here: the
CLI (``reviewer review``) and the app share all of it.
"""
