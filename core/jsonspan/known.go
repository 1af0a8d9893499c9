package jsonspan

// Known is what a parser may take as read: the long strings of texts it
// parsed before. A conversation sends its earlier tool results again with
// each request, byte for byte; scanning and decoding a 200 KB result once
// per request costs more than comparing its bytes.
//
// Before it reads a string, the parser calls Match with the body and the
// offset after the string's opening quote. Match returns ok only when the
// n bytes there are exactly the content (between the quotes, escapes as
// sent) of a string it was given by Keep, and the byte after them is '"':
// those bytes were valid string content when kept, so the quote after them
// closes the string, and text is their decoded text. The parser then takes
// the string as [Parse] would have read it, without a scan.
//
// After the parser decoded a string, it calls Keep with the body, the
// bounds of the content (body[start:end]) and its text. Keep may retain
// body: a caller that parses with a Known must not write to the body
// afterwards. Both are called for every string, short ones included: an
// implementation returns at once for what it does not hold (Match must be
// cheap on a miss, a few nanoseconds).
type Known interface {
	Match(body []byte, at int) (text string, n int, ok bool)
	Keep(body []byte, start, end int, text string)
}
