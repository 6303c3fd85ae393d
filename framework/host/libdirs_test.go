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
	return elfWithDynamic(t, []dynString{{tag, dirs}})
}

// dynString is a string entry of a dynamic section: DT_RUNPATH, DT_RPATH
// or DT_NEEDED, and its value.
type dynString struct {
	tag elf.DynTag
	val string
}

// elfWithDynamic returns a 64-bit little-endian ELF executable whose
// dynamic section holds the string entries ents, in order: enough for
// debug/elf's DynString.
func elfWithDynamic(t *testing.T, ents []dynString) []byte {
	t.Helper()
	const ehsize, shsize = 64, 64
	dynstr := []byte{0}
	var dyns []elf.Dyn64
	for _, e := range ents {
		dyns = append(dyns, elf.Dyn64{Tag: int64(e.tag), Val: uint64(len(dynstr))})
		dynstr = append(append(dynstr, e.val...), 0)
	}
	var dyn bytes.Buffer
	for _, d := range append(dyns, elf.Dyn64{Tag: int64(elf.DT_NULL)}) {
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

// TestLibrariesChecked: what the dynamic loader would load for an ELF
// plugin is checked beyond its library directories' modes (campaign 10):
// a DT_RUNPATH or DT_RPATH entry with a $ token the loader replaces by a
// directory of its own ($PLATFORM, ${LIB}: R02c, R02d) is refused; an
// empty entry is the working directory, and is checked as such (R04); a
// DT_NEEDED entry with a slash is a library's path from the working
// directory, walked as an interpreter's (R03, R03b); a library found in
// one of the plugin's library directories is checked in turn, its own
// directories and libraries too, through loops, up to maxLibraries
// (R06). Libraries not
// found in a directory that an object names (the system's) are not
// followed.
func TestLibrariesChecked(t *testing.T) {
	const bin = "pd/bench-plugin-x"
	const other = 12345
	const dropTail = ", or drop the directory from the binary's RUNPATH"
	const moveTail = ", or move the plugin to a directory that only you and root can write"
	rp := func(v string) dynString { return dynString{elf.DT_RUNPATH, v} }
	need := func(v string) dynString { return dynString{elf.DT_NEEDED, v} }
	for _, c := range []struct {
		name string
		dirs map[string]os.FileMode // directories under the root, made
		// objects are ELF files under the root, with their dynamic
		// string entries ({ROOT} the root); bin is the plugin.
		objects map[string][]dynString
		wd      string   // the working directory, under the root
		gives   []string // paths given to uid other
		want    string
	}{
		{name: "RUNPATH with the PLATFORM token (R02c)",
			dirs:    map[string]os.FileMode{"pd": 0o755, "plat": 0o755},
			objects: map[string][]dynString{bin: {rp("{ROOT}/plat/$PLATFORM")}},
			want:    "plugin binary {ROOT}/pd/bench-plugin-x: cannot tell which directory the dynamic loader looks in: DT_RUNPATH entry {ROOT}/plat/$PLATFORM holds $PLATFORM; name the directory itself in the binary's RUNPATH ($ORIGIN is understood)"},
		{name: "RPATH with the braced LIB token (R02d)",
			dirs:    map[string]os.FileMode{"pd": 0o755, "plat": 0o755},
			objects: map[string][]dynString{bin: {{elf.DT_RPATH, "/usr/lib:{ROOT}/plat/${LIB}"}}},
			want:    "plugin binary {ROOT}/pd/bench-plugin-x: cannot tell which directory the dynamic loader looks in: DT_RPATH entry {ROOT}/plat/${LIB} holds ${LIB}; name the directory itself in the binary's RPATH ($ORIGIN is understood)"},
		{name: "RUNPATH with the ORIGINX token, not ORIGIN",
			dirs:    map[string]os.FileMode{"pd": 0o755},
			objects: map[string][]dynString{bin: {rp("$ORIGINX/lib")}},
			want:    "plugin binary {ROOT}/pd/bench-plugin-x: cannot tell which directory the dynamic loader looks in: DT_RUNPATH entry $ORIGINX/lib holds $ORIGINX; name the directory itself in the binary's RUNPATH ($ORIGIN is understood)"},
		{name: "empty RUNPATH entry, run from a 0777 directory (R04)",
			dirs:    map[string]os.FileMode{"pd": 0o755, "w": 0o777},
			objects: map[string][]dynString{bin: {rp(":/usr/lib")}}, wd: "w",
			want: "the library directory . (an empty DT_RUNPATH entry: the working directory) of {ROOT}/pd/bench-plugin-x: the library directory {ROOT}/w is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace a library; chmod o-w {ROOT}/w" + dropTail},
		{name: "empty RUNPATH entry at the end, run from a sticky directory",
			dirs:    map[string]os.FileMode{"pd": 0o755, "st": 0o777 | os.ModeSticky},
			objects: map[string][]dynString{bin: {rp("/usr/lib:")}}, wd: "st",
			want: "the library directory . (an empty DT_RUNPATH entry: the working directory) of {ROOT}/pd/bench-plugin-x: {ROOT}/st is writable by every user (owner {ME}, mode 1777): any local user could put a library in it that the plugin would load; chmod o-w {ROOT}/st" + dropTail},
		{name: "empty RUNPATH entry between two, run from a safe directory",
			dirs:    map[string]os.FileMode{"pd": 0o755, "lib": 0o755},
			objects: map[string][]dynString{bin: {rp("{ROOT}/lib::/usr/lib")}}, wd: "lib"},
		{name: "a RUNPATH entry that is a file is passed over, as the loader does (campaign 10b V23)",
			dirs:    map[string]os.FileMode{"pd": 0o755, "lib": 0o755},
			objects: map[string][]dynString{bin: {rp("{ROOT}/lib/afile:/usr/lib")}, "lib/afile": nil}},
		{name: "NEEDED by a path into a 0777 directory (R03)",
			dirs:    map[string]os.FileMode{"pd": 0o755, "ww": 0o777},
			objects: map[string][]dynString{bin: {need("ww/libnos.so")}, "ww/libnos.so": nil},
			want:    "the library ww/libnos.so of {ROOT}/pd/bench-plugin-x: the library directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace libnos.so; chmod o-w {ROOT}/ww" + moveTail},
		{name: "NEEDED ./libnos.so, run from a 0777 directory that lacks it (R03b)",
			dirs:    map[string]os.FileMode{"pd": 0o755, "w": 0o777},
			objects: map[string][]dynString{bin: {need("./libnos.so")}}, wd: "w",
			want: "the library ./libnos.so of {ROOT}/pd/bench-plugin-x: the library directory {ROOT}/w is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace libnos.so; chmod o-w {ROOT}/w" + moveTail},
		{name: "NEEDED ./libnos.so, run from a sticky directory that lacks it",
			dirs:    map[string]os.FileMode{"pd": 0o755, "st": 0o777 | os.ModeSticky},
			objects: map[string][]dynString{bin: {need("./libnos.so")}}, wd: "st",
			want: `the library ./libnos.so of {ROOT}/pd/bench-plugin-x: the library directory {ROOT}/st is writable by every user (owner {ME}, mode 1777) and holds no "libnos.so": any local user could make it; install it, or name one in a directory that only you and root can write`},
		{name: "NEEDED by a path, another user's library",
			dirs:    map[string]os.FileMode{"pd": 0o755, "lib": 0o755},
			objects: map[string][]dynString{bin: {need("lib/libnos.so")}, "lib/libnos.so": nil}, gives: []string{"lib/libnos.so"},
			want: "the library lib/libnos.so of {ROOT}/pd/bench-plugin-x: {ROOT}/lib/libnos.so is owned by {OTHER}, not by root or you ({ME}): its owner could change the program bench runs; chown {MEC} {ROOT}/lib/libnos.so" + moveTail},
		{name: "NEEDED by a path, safe, missing where no one else may make it, and a system library",
			dirs:    map[string]os.FileMode{"pd": 0o755, "lib": 0o755},
			objects: map[string][]dynString{bin: {need("lib/libok.so"), need("lib/libnone.so"), need("libc.so.6")}, "lib/libok.so": nil}},
		{name: "a library's own RUNPATH in a 0777 directory (R06)",
			dirs: map[string]os.FileMode{"pd": 0o755, "safe": 0o755, "ww": 0o777},
			objects: map[string][]dynString{bin: {rp("{ROOT}/safe"), need("libmid.so")},
				"safe/libmid.so": {rp("{ROOT}/ww"), need("libatk.so")}},
			want: "the library directory {ROOT}/ww of {ROOT}/safe/libmid.so: the library directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace a library; chmod o-w {ROOT}/ww" + dropTail},
		{name: "a library's own ORIGIN, three deep",
			dirs: map[string]os.FileMode{"pd": 0o755, "safe": 0o755, "deep": 0o755, "ww": 0o777},
			objects: map[string][]dynString{bin: {rp("$ORIGIN/../safe"), need("liba.so")},
				"safe/liba.so": {rp("$ORIGIN/../deep"), need("libb.so")},
				"deep/libb.so": {rp("$ORIGIN/../ww")}},
			want: "the library directory {ROOT}/deep/../ww of {ROOT}/safe/../deep/libb.so: the library directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace a library; chmod o-w {ROOT}/ww" + dropTail},
		{name: "a library's NEEDED by a path into a 0777 directory",
			dirs: map[string]os.FileMode{"pd": 0o755, "safe": 0o755, "ww": 0o777},
			objects: map[string][]dynString{bin: {rp("{ROOT}/safe"), need("libmid.so")},
				"safe/libmid.so": {need("{ROOT}/ww/libatk.so")}},
			want: "the library {ROOT}/ww/libatk.so of {ROOT}/safe/libmid.so: the library directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace libatk.so; chmod o-w {ROOT}/ww" + moveTail},
		{name: "another user's library in the plugin's RUNPATH",
			dirs:    map[string]os.FileMode{"pd": 0o755, "safe": 0o755},
			objects: map[string][]dynString{bin: {rp("{ROOT}/safe"), need("libmid.so")}, "safe/libmid.so": nil}, gives: []string{"safe/libmid.so"},
			want: "the library {ROOT}/safe/libmid.so of {ROOT}/pd/bench-plugin-x: {ROOT}/safe/libmid.so is owned by {OTHER}, not by root or you ({ME}): its owner could change the program bench runs; chown {MEC} {ROOT}/safe/libmid.so" + moveTail},
		{name: "libraries that need each other, one with a 0777 RUNPATH",
			dirs: map[string]os.FileMode{"pd": 0o755, "safe": 0o755, "ww": 0o777},
			objects: map[string][]dynString{bin: {rp("{ROOT}/safe"), need("liba.so")},
				"safe/liba.so": {need("libb.so")}, "safe/libb.so": {need("liba.so"), rp("{ROOT}/ww")}},
			want: "the library directory {ROOT}/ww of {ROOT}/safe/libb.so: the library directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace a library; chmod o-w {ROOT}/ww" + dropTail},
		{name: "libraries that need each other, all safe",
			dirs: map[string]os.FileMode{"pd": 0o755, "safe": 0o755},
			objects: map[string][]dynString{bin: {rp("{ROOT}/safe"), need("liba.so"), need("libc.so.6")},
				"safe/liba.so": {need("libb.so")}, "safe/libb.so": {need("liba.so"), rp("$ORIGIN")}}},
		{name: "a chain of more libraries than the bound",
			dirs:    map[string]os.FileMode{"pd": 0o755, "safe": 0o755},
			objects: libraryChain(bin, "{ROOT}/safe", maxLibraries+1),
			want:    "library {ROOT}/safe/lib256.so: more than 256 libraries to check, in directories that the plugin and its libraries name; the host follows no more"},
		{name: "a chain of as many libraries as the bound",
			dirs:    map[string]os.FileMode{"pd": 0o755, "safe": 0o755},
			objects: libraryChain(bin, "{ROOT}/safe", maxLibraries)},
	} {
		t.Run(c.name, func(t *testing.T) { // no $ in a name: it would be in the root's path
			root, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			chmod(t, root, 0o755)
			for _, d := range sortedKeys(c.dirs) {
				if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for p, ents := range c.objects {
				var es []dynString
				for _, e := range ents {
					es = append(es, dynString{e.tag, strings.ReplaceAll(e.val, "{ROOT}", root)})
				}
				if err := os.WriteFile(filepath.Join(root, p), elfWithDynamic(t, es), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for d, m := range c.dirs {
				chmod(t, filepath.Join(root, d), m)
			}
			t.Chdir(filepath.Join(root, c.wd))
			var gives []give
			for _, p := range c.gives {
				gives = append(gives, give{filepath.Join(root, p), other, -1})
			}
			path := filepath.Join(root, bin)
			err = runningUser().checkWith(path, path, ownedLstat(t, gives))
			me := os.Geteuid()
			want := strings.NewReplacer("{ROOT}", root, "{ME}", userName(me), "{MEC}", chownTo(me), "{OTHER}", userName(other)).Replace(c.want)
			if got := fmt.Sprint(err); (want == "" && err != nil) || (want != "" && got != want) {
				t.Fatalf("got  %v\nwant %s", err, want)
			}
		})
	}
}

// libraryChain returns the objects of a plugin bin whose RUNPATH is dir,
// under the root as safe/, that needs lib0.so, which needs lib1.so, and
// so on to lib(n-1).so: n libraries.
func libraryChain(bin, dir string, n int) map[string][]dynString {
	objs := map[string][]dynString{bin: {{elf.DT_RUNPATH, dir}, {elf.DT_NEEDED, "lib0.so"}}}
	for i := 0; i < n; i++ {
		var ents []dynString
		if i+1 < n {
			ents = []dynString{{elf.DT_NEEDED, fmt.Sprintf("lib%d.so", i+1)}}
		}
		objs[fmt.Sprintf("safe/lib%d.so", i)] = ents
	}
	return objs
}
