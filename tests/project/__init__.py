"""Tests of the whole project: import layers, packaging, pins, the sample, the self-test."""
