package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/go-text/typesetting/font"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"rockstep/assets"
)

// TestFontsHaveEveryCharacterTheUIWrites: every character of every string
// the UI's code holds is in the regular and the bold font, so that none is
// drawn as an empty box (the versus winner's "★" was). Strings are read
// from the source of ui and ui/draw, test files aside.
func TestFontsHaveEveryCharacterTheUIWrites(t *testing.T) {
	a, err := assets.Load()
	if err != nil {
		t.Fatal(err)
	}
	faces := map[string]*text.GoTextFaceSource{"regular": a.Fonts.Regular, "bold": a.Fonts.Bold}
	var files []string
	for _, pattern := range []string{"*.go", "draw/*.go"} { // ui, and what it draws with
		f, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f...)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, r := range s {
				if r < 0x80 || !unicode.IsPrint(r) {
					continue
				}
				checked++
				for fn, src := range faces {
					if _, ok := src.UnsafeInternal().(*font.Face).NominalGlyph(r); !ok {
						t.Errorf("%s: %q has %q (%U), which the %s font lacks", fset.Position(lit.Pos()), s, r, r, fn)
					}
				}
			}
			return true
		})
	}
	if checked == 0 {
		t.Fatal("no character beyond ASCII checked: is the source where the test looks?")
	}
}
