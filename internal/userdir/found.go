package userdir

// Found says what ReadFile found.
type Found int

const (
	NotFound    Found = iota // no file
	Decoded                  // the file, decoded
	LeftInPlace              // a file that could not be read or decoded, left where it is
	MovedAside               // a file that did not decode, now beside it as name.bad
)
