//go:build js

package userdir

import (
	"encoding/base64"
	"fmt"
	"path"
	"syscall/js"
)

// In a browser tab there are no files: a player's files (settings.json,
// high scores, the game to rejoin) are kept in the page's localStorage,
// one item each, named "rockstep:" and the file's path, base64-encoded
// (localStorage holds strings). The page sets ROCKSTEP_CONFIG_DIR, so Dir
// names a folder here as on a desktop.

func storage() (js.Value, error) {
	ls := js.Global().Get("localStorage")
	if ls.IsUndefined() || ls.IsNull() {
		return ls, fmt.Errorf("this browser keeps no local storage")
	}
	return ls, nil
}

func itemName(dir, name string) string { return "rockstep:" + path.Join(dir, name) }

// WriteFile keeps data as dir/name in the browser's storage.
func WriteFile(dir, name string, data []byte) (err error) {
	ls, err := storage()
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil { // a full or refused storage throws
			err = fmt.Errorf("write %s: %v", itemName(dir, name), r)
		}
	}()
	ls.Call("setItem", itemName(dir, name), base64.StdEncoding.EncodeToString(data))
	return nil
}

// ReadFile reads dir/name from the browser's storage and hands its bytes
// to decode; one that decode refuses is kept as name.bad, as on a desktop.
func ReadFile(dir, name string, decode func([]byte) error) (Found, error) {
	ls, err := storage()
	if err != nil {
		return NotFound, nil
	}
	item := itemName(dir, name)
	v := ls.Call("getItem", item)
	if v.IsNull() || v.IsUndefined() {
		return NotFound, nil
	}
	data, err := base64.StdEncoding.DecodeString(v.String())
	if err == nil {
		err = decode(data)
		if err == nil {
			return Decoded, nil
		}
	}
	ls.Call("setItem", item+".bad", v)
	ls.Call("removeItem", item)
	return MovedAside, fmt.Errorf("%s was damaged (%w); kept as %s.bad", item, err, name)
}
