"""Files named on the command line or in a bot option: read and written safely.

A path given by a user may name nothing, a directory, a named pipe or a device (``/dev/zero``
never ends; a pipe blocks until someone writes to it), a huge or binary file, or a file we may
not read.  :func:`read_text_file` refuses every one of them with a
:class:`~myriad.core.errors.MyriadError` naming the path and the reason, without hanging: it
opens without blocking and checks that what it opened is a regular file before reading.
:func:`open_text_output` does the same for a file to be written, before any work is done.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import TextIO

from myriad.core.errors import MyriadError

#: The largest file read as text: far beyond any book or record file, well below memory.
MAX_TEXT_BYTES = 64 * 1024 * 1024


class FileError(MyriadError):
    """A file named by the user cannot be read or written (missing, not a regular file,
    too large, not text, no permission)."""


def _reason(err: OSError) -> str:
    if isinstance(err, FileNotFoundError):
        return "no such file"
    if isinstance(err, IsADirectoryError):
        return "is a directory, not a file"
    if isinstance(err, NotADirectoryError):
        return "a part of the path is not a directory"
    if isinstance(err, PermissionError):
        return "permission denied"
    if err.errno == errno.ENXIO:
        return "is not a regular file (a pipe or device)"
    if err.errno == errno.ENAMETOOLONG:
        return "the name is too long"
    return err.strerror or type(err).__name__


def _describe(path: str, what: str) -> str:
    shown = path if len(path) <= 200 else f"{path[:200]}... ({len(path)} characters)"
    return f"{what} {shown!r}"


def _checked(path: str, what: str) -> str:
    """How ``path`` is named in messages; a :class:`FileError` for a path no file can have."""
    where = _describe(path, what)
    if "\x00" in path:
        raise FileError(f"{where}: a path cannot contain a NUL character")
    if not path:
        raise FileError(f"{what}: the path is empty")
    return where


def _not_regular(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if stat.S_ISFIFO(mode):
        return "is a named pipe, not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "is not a regular file"


def read_text_file(path: str, what: str = "file", limit: int = MAX_TEXT_BYTES) -> str:
    """The UTF-8 text of the regular file at ``path`` (a leading byte-order mark dropped).

    Raises :class:`FileError`, naming ``what`` (e.g. ``"book file"``) and the path, when the
    file is missing, unreadable, not a regular file, larger than ``limit`` bytes, or not
    UTF-8 text (undecodable bytes or NUL bytes).
    """
    where = _checked(path, what)
    try:
        # O_NONBLOCK: opening a named pipe must not wait for a writer; regular files ignore it.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as err:
        raise FileError(f"{where}: {_reason(err)}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileError(f"{where}: {_not_regular(info.st_mode)}")
        if info.st_size > limit:
            raise FileError(f"{where}: {info.st_size:,} bytes, larger than the {limit:,} bytes allowed")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as err:
        raise FileError(f"{where}: cannot be read: {_reason(err)}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:  # it grew while we read it
        raise FileError(f"{where}: larger than the {limit:,} bytes allowed")
    if b"\x00" in data:
        raise FileError(f"{where}: a binary file (NUL byte at offset {data.index(0)}), not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise FileError(f"{where}: not UTF-8 text (bad byte at offset {err.start})") from None


class TextOutput:
    """A text file being written piece by piece: each :meth:`write` is flushed at once, so
    that what was written survives an interrupted run; a failed write is a :class:`FileError`."""

    def __init__(self, handle: TextIO, where: str) -> None:
        self.handle = handle
        self.where = where

    def write(self, text: str) -> None:
        """Append ``text`` and flush it to the operating system."""
        try:
            self.handle.write(text)
            self.handle.flush()
        except OSError as err:
            raise FileError(f"{self.where}: cannot be written: {_reason(err)}") from None

    def close(self) -> None:
        """Close the file (a failure to flush is a :class:`FileError`)."""
        try:
            self.handle.close()
        except OSError as err:
            raise FileError(f"{self.where}: cannot be written: {_reason(err)}") from None

    def __enter__(self) -> TextOutput:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_text_output(path: str, what: str = "output file") -> TextOutput:
    """``path`` opened for writing UTF-8 text (created, or emptied if it exists).

    Called before any work whose results go there, so that a bad path fails at once:
    raises :class:`FileError` when the path is a directory, a pipe or device, in a missing
    directory, or not writable.
    """
    where = _checked(path, what)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        pass
    except OSError as err:
        raise FileError(f"{where}: {_reason(err)}") from None
    else:
        if not stat.S_ISREG(info.st_mode):
            raise FileError(f"{where}: {_not_regular(info.st_mode)}")
    flags = os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except FileNotFoundError:
        raise FileError(f"{where}: cannot be written: its directory does not exist") from None
    except OSError as err:
        raise FileError(f"{where}: cannot be written: {_reason(err)}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # replaced between the two looks
            raise FileError(f"{where}: {_not_regular(info.st_mode)}")
        os.ftruncate(fd, 0)
        return TextOutput(os.fdopen(fd, "w", encoding="utf-8"), where)
    except OSError as err:
        os.close(fd)
        raise FileError(f"{where}: cannot be written: {_reason(err)}") from None
    except BaseException:
        os.close(fd)
        raise
