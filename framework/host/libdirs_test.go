package host

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// elfWithLibraryPath returns a 64-bit little-endian ELF executable whose
// dynamic section names dirs under tag (DT_RUNPATH or DT_RPATH): enough
// for debug/elf's DynString.
func elfWithLibraryPath(t *testing.T, tag elf.DynTag, dirs string) []byte {
	t.Helper()
	const ehsize, shsize = 64, 64
	dynstr := append(append([]byte{0}, dirs...), 0)
	var dyn bytes.Buffer
	for _, d := range []elf.Dyn64{{Tag: int64(tag), Val: 1}, {Tag: int64(elf.DT_NULL)}} {
		if err := binary.Write(&dyn, binary.LittleEndian, d); err != nil {
			t.Fatal(err)
		}
	}
	shstr := []byte("\x00.dynstr\x00.dynamic\x00.shstrtab\x00")
	dynOff := uint64((ehsize + len(dynstr) + 7) &^ 7)
	shstrOff := dynOff + uint64(dyn.Len())
	shOff := (shstrOff + uint64(len(shstr)) + 7) &^ 7
	hdr := elf.Header64{Type: uint16(elf.ET_EXEC), Machine: uint16(elf.EM_X86_64), Version: uint32(elf.EV_CURRENT),
		Shoff: shOff, Ehsize: ehsize, Shentsize: shsize, Shnum: 4, Shstrndx: 3}
	copy(hdr.Ident[:], elf.ELFMAG)
	hdr.Ident[elf.EI_CLASS] = byte(elf.ELFCLASS64)
	hdr.Ident[elf.EI_DATA] = byte(elf.ELFDATA2LSB)
	hdr.Ident[elf.EI_VERSION] = byte(elf.EV_CURRENT)
	sections := []elf.Section64{
		{},
		{Name: 1, Type: uint32(elf.SHT_STRTAB), Off: ehsize, Size: uint64(len(dynstr)), Addralign: 1},
		{Name: 9, Type: uint32(elf.SHT_DYNAMIC), Off: dynOff, Size: uint64(dyn.Len()), Link: 1, Addralign: 8, Entsize: 16},
		{Name: 18, Type: uint32(elf.SHT_STRTAB), Off: shstrOff, Size: uint64(len(shstr)), Addralign: 1},
	}
	var b bytes.Buffer
	write := func(v any) {
		if err := binary.Write(&b, binary.LittleEndian, v); err != nil {
			t.Fatal(err)
		}
	}
	pad := func(to uint64) { b.Write(make([]byte, int(to)-b.Len())) }
	write(hdr)
	b.Write(dynstr)
	pad(dynOff)
	b.Write(dyn.Bytes())
	b.Write(shstr)
	pad(shOff)
	for _, s := range sections {
		write(s)
	}
	return b.Bytes()
}

// TestLibraryDirsChecked: the directories an ELF plugin names for its
// libraries (DT_RUNPATH, DT_RPATH, $ORIGIN the binary's directory) are
// held to the rule of a directory in which a program could be put: one
// that others may write, sticky or not, is refused, naming it; one that
// does not exist is passed over where no one else could make it.
func TestLibraryDirsChecked(t *testing.T) {
	const bin = "bench-plugin-x"
	const tail = ", or drop the directory from the binary's RUNPATH"
	for _, c := range []struct {
		name string
		tag  elf.DynTag
		dirs string
		mode map[string]os.FileMode // directories under the root, made
		want string
	}{
		{"RUNPATH in a 0777 directory", elf.DT_RUNPATH, "{ROOT}/ww", map[string]os.FileMode{"ww": 0o777},
			"the library directory {ROOT}/ww of {ROOT}/pd/" + bin + ": the library directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace a library; chmod o-w {ROOT}/ww" + tail},
		{"RPATH in a 0777 directory", elf.DT_RPATH, "/usr/lib:{ROOT}/ww", map[string]os.FileMode{"ww": 0o777},
			"the library directory {ROOT}/ww of {ROOT}/pd/" + bin + ": the library directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace a library; chmod o-w {ROOT}/ww" + tail},
		{"$ORIGIN in a sticky directory", elf.DT_RUNPATH, "$ORIGIN/../lib", map[string]os.FileMode{"lib": 0o777 | os.ModeSticky},
			"the library directory {ROOT}/pd/../lib of {ROOT}/pd/" + bin + ": {ROOT}/lib is writable by every user (owner {ME}, mode 1777): any local user could put a library in it that the plugin would load; chmod o-w {ROOT}/lib" + tail},
		{"${ORIGIN} in a safe directory", elf.DT_RUNPATH, "${ORIGIN}/../lib", map[string]os.FileMode{"lib": 0o755}, ""},
		{"missing, where no one else may make it", elf.DT_RUNPATH, "{ROOT}/nolib", nil, ""},
		{"missing from a 0777 directory", elf.DT_RUNPATH, "{ROOT}/ww/lib", map[string]os.FileMode{"ww": 0o777},
			"the library directory {ROOT}/ww/lib of {ROOT}/pd/" + bin + ": the library directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace lib; chmod o-w {ROOT}/ww" + tail},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			chmod(t, root, 0o755)
			if err := os.Mkdir(filepath.Join(root, "pd"), 0o755); err != nil {
				t.Fatal(err)
			}
			for d, m := range c.mode {
				if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
					t.Fatal(err)
				}
				chmod(t, filepath.Join(root, d), m)
			}
			path := filepath.Join(root, "pd", bin)
			if err := os.WriteFile(path, elfWithLibraryPath(t, c.tag, strings.ReplaceAll(c.dirs, "{ROOT}", root)), 0o755); err != nil {
				t.Fatal(err)
			}
			err := runningUser().checkWith(path, path, ownedLstat(t, nil))
			want := strings.NewReplacer("{ROOT}", root, "{ME}", userName(os.Geteuid())).Replace(c.want)
			if got := fmt.Sprint(err); (want == "" && err != nil) || (want != "" && got != want) {
				t.Fatalf("got  %v\nwant %s", err, want)
			}
		})
	}
}
