"""Links from a part back to what owns it, held weakly so that closing a window frees it at once.

A window owns its helpers (file commands, services, notices, panels) and many of them need the
window back, or hand one of their own methods to a panel they own as a callback. Held strongly,
each such link closes a reference cycle, and a closed window then waits for Python's cyclic
collector. That collector runs in whichever thread allocates past its threshold (the HTTP
client's name lookups, a local model server), and a Qt object destroyed there corrupts Qt's
state. Held weakly, the window and its document are freed by reference counting the moment the
last strong reference goes, on Qt's thread, and the automatic collector finds no Qt object to free.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class BackReference(Generic[T]):
    """A class attribute whose value is held weakly: ``window = BackReference["MainWindow"]()``.

    Assigning stores a weak reference; reading returns the object, or raises ``ReferenceError``
    once it is gone (nothing may use a part of a window that no longer exists).
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name
        self._slot = f"_{name}_weakref"

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> BackReference[T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> T | BackReference[T]:
        if instance is None:
            return self
        target = instance.__dict__[self._slot]()
        if target is None:
            raise ReferenceError(f"the {self._name} of this {type(instance).__name__} has been freed")
        return target  # type: ignore[no-any-return]

    def __set__(self, instance: object, value: T) -> None:
        instance.__dict__[self._slot] = weakref.ref(value)


def weak_method(method: Callable[..., T]) -> Callable[..., T]:
    """A callback that calls the bound ``method`` without keeping its object alive.

    For a method handed to a part its object owns (a panel's lookup, a model's size hint): the
    part may outlive a call from a queued event by moments, never the object's own life, so a
    call after the object is gone is an error, not a silent no-op.
    """
    ref = weakref.WeakMethod(method)  # type: ignore[arg-type]
    name = getattr(method, "__qualname__", repr(method))

    def call(*args: Any, **kwargs: Any) -> T:
        bound = ref()
        if bound is None:
            raise ReferenceError(f"{name} was called after its object was freed")
        return bound(*args, **kwargs)  # type: ignore[no-any-return]

    return call
