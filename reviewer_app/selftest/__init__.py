"""``reviewer --self-test``: an install proves it works (Qt, the sample, the agent loop, keyring, folders).

The entry point is :func:`reviewer_app.selftest.runner.run_self_test`. This package also holds
the scripted model server (:mod:`.scripted_model_server`) that the self-test's agent turn and
the agent tests talk to. Nothing is imported here: the test helpers import the server without
loading Qt, and the runner imports Qt only after choosing the platform plugin.
"""
