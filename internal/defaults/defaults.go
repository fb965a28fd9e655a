// Package defaults fills in the settings of a Config that its caller left
// unset.
package defaults

// Number is what a Config's counts, rates and durations are made of.
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64
}

// Positive sets *v to def unless *v is above zero: a Config leaves a count,
// a rate or a duration at zero to mean the default, and a negative one means
// the default too.
func Positive[T Number](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}
