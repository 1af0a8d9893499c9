// Package fstools provides Read and Grep confined to a root directory, with
// the in-tool size validation of docs/contracts.md, section 2. They are
// the only tools of the read-grep extraction sub-agent
// (docs/contracts.md, section 1), and any agent can offer them.
//
// # Confinement
//
// Paths are relative to the root. Before anything touches the file system a
// path is checked lexically and refused ([ErrRefused], with the reason) when
// it is empty, holds a NUL byte, is absolute ("/x", "C:\x", "C:/x", "\\host"),
// uses backslashes (Windows-style separators are not accepted, so they cannot
// smuggle a "..\"), or has a ".." element anywhere, even one that would stay
// inside ("a/../b"). "." and "./x" are fine; a trailing slash is allowed on
// directories. The file system is then reached only through an os.Root, which
// follows a symbolic link only when it resolves inside the root: a link that
// leaves the root, and any link with an absolute target, is refused, never
// followed. Percent-encoded or look-alike dots are ordinary file names: they
// name nothing outside the root. Errors quote the path as given, a path over
// 256 bytes by its first 256 bytes and its length; answers that name a file
// ("no lines", "No matches") name the cleaned path.
//
// # Size validation (spec section 4)
//
// Read checks the file's size before reading it. The estimate is
// size / CharsPerToken (4), rounded down; when it is strictly greater than
// MaxTokens (25000) and no limit is given, Read returns the spec's error text
// ([FileTooLarge]) as its result, reading nothing. With a limit, Read returns
// lines [offset, offset+limit) and streams only up to them; offset is a
// 0-based line index, limit a count of lines. Where the spec is silent: an
// offset without a limit reads from that line to the end (the size check still
// applies); a window whose own estimate is over MaxTokens is refused with
// [WindowTooLarge] rather than returned partly (the spec never returns partial
// data); an offset past the end answers with the file's line count.
//
// Grep searches a file, or every regular file under a directory in lexical
// order (symbolic links inside a directory are not followed; a name that is
// not valid UTF-8 is searched and listed as the bytes it is), for a Go
// regular expression. Output follows grep -n: "N:text" for one file,
// "path:N:text" for a directory, context lines with "-" instead of ":", and
// "--" between groups. Line numbers are 1-based (Read's offset is N−1). It
// stops listing at max_results matching lines (default 100) and says how many
// matched in all. When the listing is still estimated over MaxTokens it
// returns the spec's error text ([SearchTooLarge]) instead.
//
// # Lines
//
// A line is what ends with "\n", and the bytes after the last "\n" when
// there are any: an empty file has no lines, and a 4096-byte file without a
// newline has one, whatever the sizes of the buffers it is read through.
// Read returns lines with their "\n"; Grep matches and prints them without
// it, and without one "\r" right before it (or at the end of the file).
//
// # Files that are not regular
//
// Read and Grep read regular files only. A path that names a FIFO, a socket
// or a device (directly or through a link inside the root) is refused with
// an error that says what it is, before anything is opened or read; the
// open itself cannot block (O_NONBLOCK), and the opened file is checked
// again, so a FIFO put in place of a file between the two checks is refused
// too. A directory search leaves such files out, as it leaves out links.
//
// # Memory
//
// Neither tool holds much more than an answer: Read stops keeping lines at
// (MaxTokens+1)*CharsPerToken bytes and only counts the rest. Grep reads
// through a 64 KiB buffer; a line that fits is matched in place, a longer
// one is streamed through the regular expression, keeping only its first
// MaxLineBytes and a ring of the last 64 KiB read, so a 100 MB line costs
// about as much as a short one. The listing stops growing at the same
// bound (its size is still counted for the estimate), held context lines
// give up their text past it, and a context over 33,335 lines is read as
// 33,335 (each printed line takes at least 3 bytes, so a wider context on
// one side of a match is over MaxTokens either way).
//
// # Long lines in Grep (the spec is silent)
//
// A line over MaxLineBytes (4096) is printed cut to at most MaxLineBytes
// bytes on whole characters: a matching line from 1024 bytes before its
// first match (the leftmost, as regexp finds it), a context line from its
// start. When the first match of a streamed line began more than 64 KiB
// before the regular expression settled on it (a very long match), the cut
// starts where the ring does, inside the match. After the listing, one note
// per cut line says so:
//
//	(line 12 is cut: 104857600 bytes long, 4096 shown from byte offset 52427776)
//
// ("(path line 12 is cut: …)" when a directory is searched); byte offsets
// are 0-based, in the line without its "\r\n". The notes count toward the
// size check like the listing.
//
// [CheckCommandOutput] is the spec's post-execution check for tools whose
// output size cannot be known in advance (shell commands).
//
// The spec's error texts are kept verbatim, one line each (the spec's code
// joins its sentences with a space; its section 5.2 examples are wrapped for
// reading). They name grep_content, the spec's tool, although the tool here
// is called Grep: the texts are the contract.
package fstools
