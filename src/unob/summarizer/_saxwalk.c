/* The walk of unob.summarizer.walk, in C, on libxml2's parse events.
 *
 * walk.py's _Walker receives libxml2's parse events through lxml's parser
 * target interface: for every start tag lxml builds a dict of the attributes
 * and str objects of the names and values, and calls a Python method; for
 * every text node it builds a str.  That per-event work was about half of
 * deriving a page (python3-doc: 34 M instructions a page for the walk, 17 M
 * for lxml's parse into a tree).  Here libxml2's HTML parser, the very one
 * lxml links and exports, calls C functions for its events (SAX), with the
 * parse options lxml would pass, and the walk makes Python objects only for
 * what it keeps: block texts, ids, links, headings.  No tree is built, so
 * the whole walk costs about what lxml's tree parse alone costs.
 * Vocabulary lookups, whitespace rules of pre blocks and headings and rare
 * elements (img, meta, link, ...) call back into walk.py, so each rule is
 * written once.
 *
 * The result must equal _Walker's for every input: walk.py is the
 * reference, each C function names the _Walker code it mirrors, and
 * tests/summarizer/test_saxwalk.py compares both walkers on real pages and
 * on generated junk.  Headers: those lxml ships (lxml.get_include()).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlfcn.h>
#include <string.h>
#include <libxml/HTMLparser.h>

/* libxml2's HTML parser, taken from the lxml extension module that links it
 * (lxml exports libxml2's functions; lxml.get_include() has the headers).
 * Using the very parser lxml uses is what makes the events equal to those
 * lxml's parser target receives. */
typedef htmlParserCtxtPtr (*NewSAXParserCtxtFn)(const htmlSAXHandler *, void *);
typedef htmlDocPtr (*CtxtReadMemoryFn)(htmlParserCtxtPtr, const char *, int, const char *, const char *, int);
typedef void (*FreeParserCtxtFn)(htmlParserCtxtPtr);
typedef void (*FreeDocFn)(xmlDocPtr);
typedef void (*StopParserFn)(xmlParserCtxtPtr);
static NewSAXParserCtxtFn new_sax_parser_ctxt;
static CtxtReadMemoryFn ctxt_read_memory;
static FreeParserCtxtFn free_parser_ctxt;
static FreeDocFn free_doc;
static StopParserFn stop_parser;

/* walk.py's _PARSER_OPTIONS as lxml passes them to libxml2 (recover,
 * no_network, compact, default_doctype=False), and no error reports: lxml
 * collects those in its error log, which a parser target never reads. */
static const int PARSE_OPTIONS = HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_COMPACT |
                                 HTML_PARSE_NODEFDTD | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING;

/* Tag kinds: walk.py's _K_* values. */
enum {
    K_BLOCK = 0, K_INLINE = 1, K_SKIP = 2, K_A = 3, K_HEADING = 4, K_IMG = 5,
    K_CODE = 6, K_BREAK = 7, K_TIME = 8, K_AREA = 9, K_META = 11, K_LINK = 12,
    K_TITLE = 13, K_SCRIPT = 14, K_BASE = 15, K_INLINE_LOC = 16
};
/* TagInfo.flags */
enum { F_SECTIONING = 1, F_NEVER_JUNK = 2, F_HTML_OR_BODY = 4 };

/* ---- configuration, set once by walk.py (configure()) ---------------- */

static PyObject *cfg_tag_info;     /* dict tag -> (kind, location bits, heading level, flags) */
static PyObject *cfg_role_bits;    /* function (role str) -> location bits */
static PyObject *cfg_value_cache;  /* dict class/id value -> vocabulary bits */
static PyObject *cfg_value_bits;   /* function value -> bits (fills the cache) */
static PyObject *cfg_hidden_style; /* function style -> bool (the regex) */
static PyObject *cfg_normalize;    /* _normalize_block(raw, in_pre, heading) -> str */
static PyObject *cfg_collapse;     /* " ".join(text.split()) */
static PyObject *cfg_read_img, *cfg_read_meta, *cfg_read_link_rel, *cfg_read_base;
static PyObject *cfg_is_json_ld, *cfg_finish_special, *cfg_strip_lang, *cfg_rel_tokens;
static PyObject *cfg_walked, *cfg_raw_link, *cfg_raw_heading;
static double cfg_weight[16];
static int cfg_junk[16];
static long cfg_hidden_bit, cfg_in_pre, cfg_in_code, cfg_in_heading;
static int configured = 0;

/* ---- growable buffers ------------------------------------------------- */

typedef struct { char *p; Py_ssize_t len, cap; } Buf;

static int buf_add(Buf *b, const char *s, Py_ssize_t n) {
    if (b->len + n > b->cap) {
        Py_ssize_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n) cap *= 2;
        char *p = PyMem_Realloc(b->p, (size_t)cap);
        if (p == NULL) { PyErr_NoMemory(); return -1; }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, (size_t)n);
    b->len += n;
    return 0;
}

typedef struct { long *p; Py_ssize_t len, cap; } Longs;

/* Double the capacity of a growable array (*p, *cap) of item-size entries. */
static int grow(void **p, Py_ssize_t *cap, size_t item) {
    Py_ssize_t n = *cap ? *cap * 2 : 16;
    void *q = PyMem_Realloc(*p, (size_t)n * item);
    if (q == NULL) { PyErr_NoMemory(); return -1; }
    *p = q;
    *cap = n;
    return 0;
}

static int longs_push(Longs *a, long v) {
    if (a->len == a->cap && grow((void **)&a->p, &a->cap, sizeof *a->p) < 0) return -1;
    a->p[a->len++] = v;
    return 0;
}

/* Python objects owned by the walk (open links, captures' targets). */
typedef struct { PyObject **p; Py_ssize_t len, cap; } Objs;

static int objs_push(Objs *a, PyObject *o) {
    if (a->len == a->cap && grow((void **)&a->p, &a->cap, sizeof *a->p) < 0) return -1;
    Py_XINCREF(o);
    a->p[a->len++] = o;
    return 0;
}

/* ---- tag information, cached per walk by name -------------------------- */

typedef struct {
    char *name; /* a copy; NULL: empty slot */
    size_t hash;
    int kind, level, flags;
    long loc;
    PyObject *str; /* the tag as str */
} TagInfo;

/* ---- the walk's state: _Walker's slots ---------------------------------- */

typedef struct {
    PyObject *w;                                   /* the Walked being filled */
    PyObject *tag, *weight, *junk, *ident;         /* its per-node lists */
    PyObject *b_node, *b_text, *b_link, *headings, *images, *links, *time_dt, *inline_code;
    Longs parent, mask_of, end, text_len, link_len, node_flags; /* per node */
    Longs stack;      /* per open pushed element: saved mask << 5 | kind */
    Longs node_stack; /* open block nodes (starts with -1) */
    long cur_node, mask, in_link, position, last_b_node;
    Py_ssize_t n_blocks;
    Buf buf;          /* text of the current block, UTF-8 */
    long buf_link;    /* of which inside links, in code points */
    Buf cap;          /* text since the outermost open capture */
    Buf scratch;      /* collapse_utf8's output */
    Longs cap_start;  /* per open capture: its start in cap */
    Objs cap_obj;     /* per open capture: the RawLink/RawHeading, or None (code) */
    Objs open_links;
    PyObject *open_heading; /* owned, or NULL */
    int title_done, lang_done;
    int skip;          /* _Walker.skip: depth inside a skipped element */
    int special_kind;  /* K_TITLE or K_SCRIPT while collecting its text, else 0 */
    Buf special;       /* that text */
    int failed;        /* a Python error is set: ignore the remaining events */
    htmlParserCtxtPtr ctxt;
    TagInfo *tags; /* open addressing by name; capacity a power of 2 */
    int n_tags, tag_cap;
} State;

static size_t name_hash(const char *s) {
    size_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static int grow_tags(State *st) {
    int cap = st->tag_cap ? st->tag_cap * 2 : 64;
    TagInfo *tags = PyMem_Calloc((size_t)cap, sizeof(TagInfo));
    if (tags == NULL) { PyErr_NoMemory(); return -1; }
    for (int i = 0; i < st->tag_cap; i++) {
        TagInfo *old = &st->tags[i];
        if (old->name == NULL) continue;
        size_t h = old->hash & (size_t)(cap - 1);
        while (tags[h].name != NULL) h = (h + 1) & (size_t)(cap - 1);
        tags[h] = *old;
    }
    PyMem_Free(st->tags);
    st->tags = tags;
    st->tag_cap = cap;
    return 0;
}

/* The TagInfo of an element name, cached for the walk (pages use a few
 * dozen distinct names; junk pages may use thousands). */
static TagInfo *tag_info(State *st, const xmlChar *xname) {
    const char *name = (const char *)xname;
    if (st->n_tags * 2 >= st->tag_cap && grow_tags(st) < 0) return NULL;
    size_t hash = name_hash(name), mask = (size_t)(st->tag_cap - 1), h = hash & mask;
    TagInfo *t;
    for (t = &st->tags[h]; t->name != NULL; t = &st->tags[h]) {
        if (t->hash == hash && strcmp(t->name, name) == 0) return t;
        h = (h + 1) & mask;
    }
    size_t len = strlen(name);
    PyObject *s = PyUnicode_DecodeUTF8(name, (Py_ssize_t)len, "replace");
    if (s == NULL) return NULL;
    PyObject *info = PyDict_GetItemWithError(cfg_tag_info, s); /* borrowed */
    if (info == NULL && PyErr_Occurred()) { Py_DECREF(s); return NULL; }
    int kind = K_BLOCK, level = 0, flags = 0;
    long loc = 0;
    if (info != NULL && !PyArg_ParseTuple(info, "ilii", &kind, &loc, &level, &flags)) {
        Py_DECREF(s);
        return NULL;
    }
    char *copy = PyMem_Malloc(len + 1);
    if (copy == NULL) { Py_DECREF(s); PyErr_NoMemory(); return NULL; }
    memcpy(copy, name, len + 1);
    t->name = copy;
    t->hash = hash;
    t->kind = kind; t->loc = loc; t->level = level; t->flags = flags;
    t->str = s;
    st->n_tags++;
    return t;
}

/* ---- attributes ---------------------------------------------------------- */

/* The attributes the walk reads; a value is NULL when absent.  `atts` is the
 * parser's array name, value, name, value, ..., NULL (a value may be NULL:
 * `<p hidden>`; lxml then gives "", and so does this). */
typedef struct {
    int count;
    const char *cls, *id, *role, *style, *hidden, *aria_hidden, *href, *rel, *lang, *xml_lang,
        *name, *alt, *datetime;
} Attrs;

#define ATT_VALUE(v) ((v) != NULL ? (const char *)(v) : "")

static void read_attrs(const xmlChar **atts, Attrs *at) {
    at->count = 0;
    at->cls = at->id = at->role = at->style = at->hidden = at->aria_hidden = NULL;
    at->href = at->rel = at->lang = at->xml_lang = at->name = at->alt = at->datetime = NULL;
    if (atts == NULL) return;
    for (; atts[0] != NULL; atts += 2) {
        at->count++;
        const char *n = (const char *)atts[0];
        const char **slot = NULL;
        switch (n[0]) {
        case 'a':
            if (strcmp(n, "aria-hidden") == 0) slot = &at->aria_hidden;
            else if (strcmp(n, "alt") == 0) slot = &at->alt;
            break;
        case 'c': if (strcmp(n, "class") == 0) slot = &at->cls; break;
        case 'd': if (strcmp(n, "datetime") == 0) slot = &at->datetime; break;
        case 'h':
            if (strcmp(n, "href") == 0) slot = &at->href;
            else if (strcmp(n, "hidden") == 0) slot = &at->hidden;
            break;
        case 'i': if (strcmp(n, "id") == 0) slot = &at->id; break;
        case 'l': if (strcmp(n, "lang") == 0) slot = &at->lang; break;
        case 'n': if (strcmp(n, "name") == 0) slot = &at->name; break;
        case 'r':
            if (strcmp(n, "rel") == 0) slot = &at->rel;
            else if (strcmp(n, "role") == 0) slot = &at->role;
            break;
        case 's': if (strcmp(n, "style") == 0) slot = &at->style; break;
        case 'x': if (strcmp(n, "xml:lang") == 0) slot = &at->xml_lang; break;
        }
        /* The last of a repeated name, as in lxml's dict (libxml2 drops repeats anyway). */
        if (slot != NULL) *slot = ATT_VALUE(atts[1]);
    }
}

/* All attributes as a dict, as lxml gives a parser target (rare elements). */
static PyObject *attr_dict(const xmlChar **atts) {
    PyObject *d = PyDict_New();
    if (d == NULL || atts == NULL) return d;
    for (; atts[0] != NULL; atts += 2) {
        const char *v = ATT_VALUE(atts[1]);
        PyObject *key = PyUnicode_DecodeUTF8((const char *)atts[0], (Py_ssize_t)strlen((const char *)atts[0]), "replace");
        PyObject *val = key ? PyUnicode_DecodeUTF8(v, (Py_ssize_t)strlen(v), "replace") : NULL;
        if (val == NULL || PyDict_SetItem(d, key, val) < 0) {
            Py_XDECREF(key); Py_XDECREF(val); Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(key);
        Py_DECREF(val);
    }
    return d;
}

static PyObject *str_of(const char *s) {
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

/* walk._value_bits through its cache. */
static long value_bits(const char *value) {
    PyObject *s = str_of(value);
    if (s == NULL) return -1;
    PyObject *bits = PyDict_GetItemWithError(cfg_value_cache, s);
    long result;
    if (bits != NULL) {
        result = PyLong_AsLong(bits);
    } else if (PyErr_Occurred()) {
        result = -1;
    } else {
        PyObject *r = PyObject_CallOneArg(cfg_value_bits, s);
        result = r ? PyLong_AsLong(r) : -1;
        Py_XDECREF(r);
    }
    Py_DECREF(s);
    return result;
}

static long call_long(PyObject *fn, const char *arg) {
    PyObject *s = str_of(arg);
    if (s == NULL) return -1;
    PyObject *r = PyObject_CallOneArg(fn, s);
    Py_DECREF(s);
    if (r == NULL) return -1;
    long v = PyLong_AsLong(r);
    Py_DECREF(r);
    return v;
}

/* _Walker's style test: the substring test spares the regex. */
static int style_hides(const char *style) {
    if (style == NULL || !*style || !(strstr(style, "none") || strstr(style, "hidden"))) return 0;
    return (int)call_long(cfg_hidden_style, style);
}

/* ---- text ------------------------------------------------------------- */

static long code_points(const char *s, Py_ssize_t n) {
    long count = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) count++;
    return count;
}

static int append_long(PyObject *list, long v) {
    PyObject *o = PyLong_FromLong(v);
    if (o == NULL) return -1;
    int r = PyList_Append(list, o);
    Py_DECREF(o);
    return r;
}

/* A callback's result, which the caller reads as a str. */
static PyObject *must_be_str(PyObject *o) {
    if (o != NULL && !PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "a walk.py rule returned %.100s, not str", Py_TYPE(o)->tp_name);
        Py_CLEAR(o);
    }
    return o;
}

/* `" ".join(text.split())` of UTF-8 text, as a str: runs of what str.split()
 * splits on (Py_UNICODE_ISSPACE) become one space, none at the ends.  NULL
 * with no error set when the bytes are not valid UTF-8: the caller then
 * decodes with Python's replacement rules and asks Python. */
static PyObject *collapse_utf8(State *st, const char *s, Py_ssize_t n) {
    Buf *out = &st->scratch;
    out->len = 0;
    if (n > out->cap) {
        char *p = PyMem_Realloc(out->p, (size_t)n);
        if (p == NULL) return PyErr_NoMemory();
        out->p = p;
        out->cap = n;
    }
    int pending_space = 0;
    Py_ssize_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        Py_UCS4 ch;
        int len;
        if (c < 0x80) { ch = c; len = 1; }
        else if ((c & 0xE0) == 0xC0 && c >= 0xC2) { ch = c & 0x1F; len = 2; }
        else if ((c & 0xF0) == 0xE0) { ch = c & 0x0F; len = 3; }
        else if ((c & 0xF8) == 0xF0 && c <= 0xF4) { ch = c & 0x07; len = 4; }
        else return NULL;
        if (i + len > n) return NULL;
        for (int k = 1; k < len; k++) {
            unsigned char cc = (unsigned char)s[i + k];
            if ((cc & 0xC0) != 0x80) return NULL;
            ch = (ch << 6) | (cc & 0x3F);
        }
        /* Overlong forms, surrogates and values past U+10FFFF are invalid UTF-8. */
        if ((len == 3 && (ch < 0x800 || (ch >= 0xD800 && ch <= 0xDFFF))) || (len == 4 && (ch < 0x10000 || ch > 0x10FFFF)))
            return NULL;
        if (Py_UNICODE_ISSPACE(ch)) {
            pending_space = out->len > 0;
        } else {
            if (pending_space) out->p[out->len++] = ' ';
            pending_space = 0;
            memcpy(out->p + out->len, s + i, (size_t)len);
            out->len += len;
        }
        i += len;
    }
    return PyUnicode_DecodeUTF8(out->p, out->len, "strict");
}

/* A block's text as walk._normalize_block makes it; "" for nothing.  The
 * common case (whitespace collapsed, no pre, no permalink mark) is done
 * here; the rest by walk.py on the collapsed text (collapsing is idempotent). */
static PyObject *normalize(State *st, const char *s, Py_ssize_t n, int in_pre, int heading) {
    PyObject *text = NULL;
    if (!in_pre) {
        text = collapse_utf8(st, s, n);
        if (text == NULL && PyErr_Occurred()) return NULL;
        if (text != NULL) {
            Py_ssize_t len = PyUnicode_GET_LENGTH(text);
            if (len == 0 || (!heading && PyUnicode_READ_CHAR(text, len - 1) != 0x00B6)) return text;
        }
    }
    if (text == NULL) {
        text = PyUnicode_DecodeUTF8(s, n, "replace");
        if (text == NULL) return NULL;
    }
    PyObject *r = PyObject_CallFunctionObjArgs(cfg_normalize, text, in_pre ? Py_True : Py_False,
                                               heading ? Py_True : Py_False, NULL);
    Py_DECREF(text);
    return must_be_str(r);
}

/* walk._emit, with the `if not raw.isspace()` of its callers: a block of
 * only whitespace normalizes to "" either way. */
static int flush(State *st, long node) {
    if (st->buf.len == 0) return 0;
    int in_pre = node >= 0 && (st->mask_of.p[node] & cfg_in_pre);
    int heading = node >= 0 && (st->node_flags.p[node] >> 8) > 0;
    PyObject *text = normalize(st, st->buf.p, st->buf.len, in_pre, heading);
    long link_chars = st->buf_link;
    st->buf.len = 0;
    st->buf_link = 0;
    if (text == NULL) return -1;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (n == 0) { Py_DECREF(text); return 0; }
    int r = append_long(st->b_node, node);
    if (r == 0) r = PyList_Append(st->b_text, text);
    if (r == 0) r = append_long(st->b_link, link_chars);
    Py_DECREF(text);
    if (r < 0) return -1;
    st->n_blocks++;
    st->last_b_node = node;
    if (node >= 0) {
        st->text_len.p[node] += (long)n;
        st->link_len.p[node] += link_chars;
    }
    return 0;
}

/* _Walker.data */
static int data(State *st, const char *text, Py_ssize_t n) {
    if (buf_add(&st->buf, text, n) < 0) return -1;
    if (st->in_link) st->buf_link += code_points(text, n);
    if (st->cap_start.len && buf_add(&st->cap, text, n) < 0) return -1;
    return 0;
}

/* Pop the innermost capture; returns its text (new reference). */
static PyObject *pop_capture(State *st, PyObject **owner) {
    Py_ssize_t start = st->cap_start.p[--st->cap_start.len];
    *owner = st->cap_obj.p[--st->cap_obj.len]; /* reference passed to the caller */
    PyObject *text = PyUnicode_DecodeUTF8(st->cap.p + start, st->cap.len - start, "replace");
    if (st->cap_start.len == 0) st->cap.len = 0;
    return text;
}

static int push_capture(State *st, PyObject *owner) {
    if (longs_push(&st->cap_start, (long)st->cap.len) < 0) return -1;
    return objs_push(&st->cap_obj, owner);
}

/* Append text to the `pieces` list of a RawLink/RawHeading. */
static int add_piece(PyObject *owner, PyObject *text) {
    if (PyUnicode_GET_LENGTH(text) == 0) return 0;
    PyObject *pieces = PyObject_GetAttrString(owner, "pieces");
    if (pieces == NULL) return -1;
    int r = PyList_Append(pieces, text);
    Py_DECREF(pieces);
    return r;
}

/* ---- elements ------------------------------------------------------------ */

/* A heading's anchor from `attrib.get("id") or attrib.get("name")`. */
static PyObject *id_or_name(const Attrs *at) {
    if (at->id && *at->id) return str_of(at->id);
    if (at->name) return str_of(at->name);
    Py_RETURN_NONE;
}

static int heading_anchor_is_none(State *st) {
    PyObject *a = PyObject_GetAttrString(st->open_heading, "anchor");
    if (a == NULL) return -1;
    int none = a == Py_None;
    Py_DECREF(a);
    return none;
}

static int set_heading_anchor(State *st, PyObject *anchor) {
    int r = PyObject_SetAttrString(st->open_heading, "anchor", anchor);
    Py_DECREF(anchor);
    return r;
}

/* walk._is_json_ld for ASCII type attributes (almost all): 1 or 0; 2 when
 * Python must decide (Unicode lowercasing), -1 on error. */
static int script_is_json_ld(const xmlChar **atts) {
    static const char want[] = "application/ld+json";
    const char *v = NULL;
    for (; atts != NULL && atts[0] != NULL; atts += 2)
        if (strcmp((const char *)atts[0], "type") == 0) v = ATT_VALUE(atts[1]);
    if (v == NULL) return 0; /* no type: "" is not JSON-LD */
    size_t n = strlen(v), i = 0;
    for (size_t k = 0; k < n; k++)
        if ((unsigned char)v[k] >= 0x80) return 2;
    /* str.strip() on ASCII: space, \t\n\v\f\r and \x1c-\x1f. */
#define ASCII_SPACE(c) ((c) == ' ' || ((c) >= 0x09 && (c) <= 0x0D) || ((c) >= 0x1C && (c) <= 0x1F))
    while (i < n && ASCII_SPACE(v[i])) i++;
    while (n > i && ASCII_SPACE(v[n - 1])) n--;
#undef ASCII_SPACE
    if (n - i != sizeof want - 1) return 0;
    for (size_t k = 0; k < n - i; k++) {
        char c = v[i + k];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != want[k]) return 0;
    }
    return 1;
}

/* _Walker._start_special: the element's content is skipped (the caller sets
 * skip); its attributes or (title, JSON-LD) its own text count. */
static int start_special(State *st, const xmlChar **atts, TagInfo *t) {
    int kind = t->kind, special = 0;
    int has_atts = atts != NULL && atts[0] != NULL;
    PyObject *r = NULL;
    if (kind == K_META || kind == K_LINK || kind == K_BASE) {
        if (!has_atts) return 0;
        PyObject *d = attr_dict(atts);
        if (d == NULL) return -1;
        PyObject *fn = kind == K_META ? cfg_read_meta : kind == K_LINK ? cfg_read_link_rel : cfg_read_base;
        r = PyObject_CallFunctionObjArgs(fn, d, st->w, NULL);
        Py_DECREF(d);
        if (r == NULL) return -1;
        Py_DECREF(r);
        return 0;
    }
    if (kind == K_TITLE) {
        special = !st->title_done && !(st->mask & cfg_in_heading);
    } else if (kind == K_SCRIPT && has_atts) {
        special = script_is_json_ld(atts);
    }
    if (special == 2) { /* undecided in C: walk._is_json_ld */
        PyObject *d = attr_dict(atts);
        if (d == NULL) return -1;
        r = PyObject_CallOneArg(cfg_is_json_ld, d);
        Py_DECREF(d);
        if (r == NULL) return -1;
        special = PyObject_IsTrue(r);
        Py_DECREF(r);
        if (special < 0) return -1;
    }
    if (special) {
        st->special_kind = kind;
        st->special.len = 0;
    }
    return 0;
}

/* The special element ended: hand its text to walk._finish_special. */
static int finish_special(State *st) {
    int kind = st->special_kind;
    st->special_kind = 0;
    PyObject *s = PyUnicode_DecodeUTF8(st->special.p ? st->special.p : "", st->special.len, "replace");
    if (s == NULL) return -1;
    PyObject *r = PyObject_CallFunctionObjArgs(cfg_finish_special, st->w, kind == K_TITLE ? Py_True : Py_False, s, NULL);
    Py_DECREF(s);
    if (r == NULL) return -1;
    Py_DECREF(r);
    if (kind == K_TITLE) st->title_done = 1;
    return 0;
}

/* _Walker.start.  Returns 1 when the element was pushed (its children are
 * walked and end() follows), 0 when it was skipped whole, -1 on error. */
static int start(State *st, const xmlChar *name, const xmlChar **atts, Attrs *at) {
    TagInfo *t = tag_info(st, name);
    if (t == NULL) return -1;
    int kind = t->kind;
    read_attrs(atts, at);
    if (kind == K_INLINE) {
        long mask = st->mask, new_mask = mask;
        if (at->count) {
            if (at->cls && *at->cls) {
                long bits = value_bits(at->cls);
                if (bits < 0 && PyErr_Occurred()) return -1;
                if (bits & cfg_hidden_bit) return 0;
            }
            if (at->cls == NULL || at->count > 1) {
                if (at->hidden || (at->aria_hidden && strcmp(at->aria_hidden, "true") == 0)) return 0;
                int hides = style_hides(at->style);
                if (hides < 0 && PyErr_Occurred()) return -1;
                if (hides) return 0;
                if (at->role && *at->role) {
                    long loc = call_long(cfg_role_bits, at->role);
                    if (loc < 0 && PyErr_Occurred()) return -1;
                    new_mask |= loc;
                }
            }
        }
        if (longs_push(&st->stack, mask << 5 | K_INLINE) < 0) return -1;
        st->mask = new_mask;
        return 1;
    }
    if (kind == K_SKIP || (kind >= K_META && kind <= K_BASE)) {
        return start_special(st, atts, t) < 0 ? -1 : 0;
    }
    double weight = 0.0;
    int junk = 0;
    if (at->count) {
        if (at->hidden || (at->aria_hidden && strcmp(at->aria_hidden, "true") == 0)) return 0;
        int hides = style_hides(at->style);
        if (hides < 0 && PyErr_Occurred()) return -1;
        if (hides) return 0;
        int has_cls = at->cls && *at->cls, has_id = at->id && *at->id;
        if (has_cls || has_id) {
            long bits = 0;
            if (has_cls) {
                bits = value_bits(at->cls);
                if (bits < 0 && PyErr_Occurred()) return -1;
                if (bits & cfg_hidden_bit) return 0;
            }
            if (has_id) {
                long id_bits = value_bits(at->id);
                if (id_bits < 0 && PyErr_Occurred()) return -1;
                bits |= id_bits;
            }
            bits &= 15;
            weight = cfg_weight[bits];
            junk = cfg_junk[bits] && !(t->flags & F_NEVER_JUNK);
        }
    }
    long saved_mask = st->mask, mask = saved_mask | t->loc;
    if (at->count && at->role && *at->role) {
        long loc = call_long(cfg_role_bits, at->role);
        if (loc < 0 && PyErr_Occurred()) return -1;
        mask |= loc;
    }
    st->mask = mask;

    if (kind == K_BLOCK || kind == K_HEADING) {
        if (flush(st, st->cur_node) < 0) return -1;
        long nid = (long)st->parent.len;
        PyObject *ident = at->count && at->id ? str_of(at->id) : (Py_INCREF(Py_None), Py_None);
        if (ident == NULL) return -1;
        PyObject *wt = PyFloat_FromDouble(weight);
        int r = wt == NULL ? -1 : 0;
        if (r == 0) r = longs_push(&st->parent, st->cur_node);
        if (r == 0) r = PyList_Append(st->tag, t->str);
        if (r == 0) r = PyList_Append(st->weight, wt);
        if (r == 0) r = longs_push(&st->mask_of, mask);
        if (r == 0) r = longs_push(&st->end, nid);
        if (r == 0) r = PyList_Append(st->junk, junk ? Py_True : Py_False);
        if (r == 0) r = PyList_Append(st->ident, ident);
        if (r == 0) r = longs_push(&st->text_len, 0);
        if (r == 0) r = longs_push(&st->link_len, 0);
        if (r == 0) r = longs_push(&st->node_flags, (long)t->flags | (long)t->level << 8);
        Py_XDECREF(wt);
        if (r < 0) { Py_DECREF(ident); return -1; }
        if (kind == K_HEADING && st->open_heading == NULL) {
            PyObject *anchor = ident;
            Py_INCREF(anchor);
            long par = st->cur_node;
            int truthy = PyObject_IsTrue(anchor);
            if (!truthy && par >= 0 && par == nid - 1 && (st->node_flags.p[par] & F_SECTIONING) &&
                !(st->n_blocks > 0 && st->last_b_node == par)) {
                /* The heading opens its section: Sphinx and others put the id on the section. */
                Py_DECREF(anchor);
                anchor = PyList_GET_ITEM(st->ident, par);
                Py_INCREF(anchor);
            }
            PyObject *pieces = PyList_New(0);
            PyObject *heading = pieces == NULL ? NULL
                : PyObject_CallFunction(cfg_raw_heading, "llOO", (long)t->level, nid, anchor, pieces);
            Py_DECREF(anchor);
            Py_XDECREF(pieces);
            if (heading == NULL) { Py_DECREF(ident); return -1; }
            if (r == 0) r = PyList_Append(st->headings, heading);
            if (r == 0) r = push_capture(st, heading);
            for (Py_ssize_t i = 0; r == 0 && i < st->open_links.len; i++)
                r = PyObject_SetAttrString(st->open_links.p[i], "contains_heading", Py_True);
            if (r < 0) { Py_DECREF(heading); Py_DECREF(ident); return -1; }
            st->open_heading = heading; /* owned */
        } else {
            kind = K_BLOCK;
        }
        Py_DECREF(ident);
        if (longs_push(&st->node_stack, nid) < 0) return -1;
        st->cur_node = nid;
        if (nid < 3 && !st->lang_done && (t->flags & F_HTML_OR_BODY) && at->count) {
            const char *lang = at->lang && *at->lang ? at->lang : at->xml_lang;
            if (lang && *lang) {
                PyObject *s = str_of(lang);
                PyObject *stripped = s ? PyObject_CallOneArg(cfg_strip_lang, s) : NULL;
                Py_XDECREF(s);
                if (stripped == NULL) return -1;
                if (stripped != Py_None) {
                    if (PyObject_SetAttrString(st->w, "lang", stripped) < 0) { Py_DECREF(stripped); return -1; }
                    st->lang_done = 1;
                }
                Py_DECREF(stripped);
            }
        }
    } else if (kind == K_A || kind == K_AREA) {
        if (at->href == NULL) {
            kind = K_INLINE;
            if (st->open_heading != NULL && at->count) {
                int none = heading_anchor_is_none(st);
                if (none < 0) return -1;
                if (none) {
                    PyObject *anchor = id_or_name(at);
                    if (anchor == NULL || set_heading_anchor(st, anchor) < 0) return -1;
                }
            }
        } else {
            PyObject *href = str_of(at->href);
            if (href == NULL) return -1;
            PyObject *rel;
            if (at->rel && *at->rel) {
                PyObject *s = str_of(at->rel);
                rel = s ? PyObject_CallOneArg(cfg_rel_tokens, s) : NULL;
                Py_XDECREF(s);
            } else {
                rel = PyTuple_New(0);
            }
            PyObject *pieces = PyList_New(0);
            PyObject *mask_o = PyLong_FromLong(mask), *node_o = PyLong_FromLong(st->cur_node);
            PyObject *pos_o = PyLong_FromLong(st->position);
            PyObject *link = NULL;
            if (rel != NULL && pieces != NULL && mask_o != NULL && node_o != NULL && pos_o != NULL) {
                /* A vector call: no argument tuple, no format string (a link per ~6 elements). */
                PyObject *args[8] = {href, t->str, rel, mask_o, node_o, pieces, Py_False, pos_o};
                link = PyObject_Vectorcall(cfg_raw_link, args, 8, NULL);
            }
            Py_XDECREF(rel);
            Py_XDECREF(pieces);
            Py_XDECREF(mask_o);
            Py_XDECREF(node_o);
            Py_XDECREF(pos_o);
            if (link == NULL) { Py_DECREF(href); return -1; }
            st->position++;
            int r = PyList_Append(st->links, link);
            if (r == 0 && st->open_heading != NULL) {
                int none = heading_anchor_is_none(st);
                if (none < 0) r = -1;
                else if (none) {
                    PyObject *anchor = id_or_name(at);
                    if (anchor == NULL) r = -1;
                    else {
                        int truthy = PyObject_IsTrue(anchor);
                        if (!truthy && at->href[0] == '#' && at->href[1] != '\0') {
                            Py_DECREF(anchor);
                            anchor = PyUnicode_Substring(href, 1, PyUnicode_GET_LENGTH(href));
                            if (anchor == NULL) r = -1;
                            else truthy = 1;
                        }
                        if (r == 0) {
                            if (!truthy) { Py_DECREF(anchor); Py_INCREF(Py_None); anchor = Py_None; }
                            r = set_heading_anchor(st, anchor);
                        }
                    }
                }
            }
            Py_DECREF(href);
            if (r == 0 && kind == K_A) {
                r = objs_push(&st->open_links, link);
                if (r == 0) r = push_capture(st, link);
                st->in_link++;
            } else if (r == 0 && at->alt && *at->alt) {
                PyObject *alt = str_of(at->alt);
                r = alt ? add_piece(link, alt) : -1;
                Py_XDECREF(alt);
            }
            Py_DECREF(link);
            if (r < 0) return -1;
        }
    } else if (kind == K_BREAK) {
        if (flush(st, st->cur_node) < 0) return -1;
    } else if (kind == K_IMG) {
        if (at->count) {
            PyObject *d = attr_dict(atts);
            if (d == NULL) return -1;
            PyObject *r = PyObject_CallFunction(cfg_read_img, "OlO", d, st->cur_node, st->w);
            Py_DECREF(d);
            if (r == NULL) return -1;
            Py_DECREF(r);
        }
    } else if (kind == K_CODE) {
        if (saved_mask & cfg_in_code) kind = K_INLINE; /* code inside pre/code is part of that */
        else if (push_capture(st, Py_None) < 0) return -1;
    } else if (kind == K_TIME) {
        if (at->count && at->datetime && *at->datetime) {
            PyObject *item = Py_BuildValue("(Nl)", str_of(at->datetime), mask);
            if (item == NULL || PyList_Append(st->time_dt, item) < 0) { Py_XDECREF(item); return -1; }
            Py_DECREF(item);
        }
    }
    if (longs_push(&st->stack, saved_mask << 5 | kind) < 0) return -1;
    return 1;
}

/* _Walker.end, for a pushed element. */
static int end(State *st) {
    long entry = st->stack.p[--st->stack.len];
    int kind = (int)(entry & 31);
    st->mask = entry >> 5;
    if (kind == K_INLINE) return 0;
    if (kind == K_BLOCK || kind == K_HEADING) {
        long nid = st->node_stack.p[--st->node_stack.len];
        if (flush(st, nid) < 0) return -1;
        st->end.p[nid] = (long)st->parent.len - 1;
        long cur = st->node_stack.p[st->node_stack.len - 1];
        st->cur_node = cur;
        if (cur >= 0) {
            st->text_len.p[cur] += st->text_len.p[nid];
            st->link_len.p[cur] += st->link_len.p[nid];
        }
        if (kind == K_HEADING) {
            PyObject *owner;
            PyObject *text = pop_capture(st, &owner);
            int r = text ? add_piece(owner, text) : -1;
            Py_XDECREF(text);
            Py_XDECREF(owner);
            Py_CLEAR(st->open_heading);
            if (r < 0) return -1;
        }
    } else if (kind == K_A) {
        PyObject *link = st->open_links.p[--st->open_links.len];
        Py_DECREF(link);
        PyObject *owner;
        PyObject *text = pop_capture(st, &owner);
        int r = text ? add_piece(owner, text) : -1;
        Py_XDECREF(text);
        Py_XDECREF(owner);
        st->in_link--;
        if (r < 0) return -1;
    } else if (kind == K_CODE) {
        Py_ssize_t start = st->cap_start.p[--st->cap_start.len];
        PyObject *owner = st->cap_obj.p[--st->cap_obj.len];
        Py_XDECREF(owner);
        PyObject *code = collapse_utf8(st, st->cap.p + start, st->cap.len - start);
        if (code == NULL && !PyErr_Occurred()) {
            PyObject *text = PyUnicode_DecodeUTF8(st->cap.p + start, st->cap.len - start, "replace");
            code = text ? must_be_str(PyObject_CallOneArg(cfg_collapse, text)) : NULL;
            Py_XDECREF(text);
        }
        if (st->cap_start.len == 0) st->cap.len = 0;
        if (code == NULL) return -1;
        int r = 0;
        if (PyUnicode_GET_LENGTH(code) > 0) {
            PyObject *item = Py_BuildValue("(Ol)", code, st->cur_node);
            r = item ? PyList_Append(st->inline_code, item) : -1;
            Py_XDECREF(item);
        }
        Py_DECREF(code);
        if (r < 0) return -1;
    }
    return 0;
}

/* ---- libxml2's SAX callbacks: _Walker.start/end/data ----------------- */

/* The callbacks cannot report an error to libxml2: the first one stops the
 * parser and makes the remaining events no-ops; walk() then raises it. */
static void fail(State *st) {
    st->failed = 1;
    stop_parser(st->ctxt);
}

/* Whether the walk ignores further events: after a Python error, or once
 * libxml2 has stopped the parse itself (a resource limit such as a 10 MB
 * attribute value), when it may still deliver some events.  lxml's handlers
 * ignore those too (xmlCtxtIsStopped, which is disableSAX here). */
static int stopped(htmlParserCtxtPtr ctxt, State *st) {
    return st->failed || ctxt->disableSAX != 0;
}

static void sax_start(void *ctx, const xmlChar *name, const xmlChar **atts) {
    State *st = ((htmlParserCtxtPtr)ctx)->_private;
    if (stopped(ctx, st)) return;
    if (st->skip) {
        st->skip++;
        return;
    }
    Attrs at;
    int r = start(st, name, atts, &at);
    if (r < 0) fail(st);
    else if (r == 0) st->skip = 1;
}

static void sax_end(void *ctx, const xmlChar *name) {
    State *st = ((htmlParserCtxtPtr)ctx)->_private;
    (void)name;
    if (stopped(ctx, st)) return;
    if (st->skip) {
        if (--st->skip == 0 && st->special_kind && finish_special(st) < 0) fail(st);
        return;
    }
    if (st->stack.len == 0) return; /* never: libxml2 balances its events */
    if (end(st) < 0) fail(st);
}

static void sax_characters(void *ctx, const xmlChar *ch, int len) {
    State *st = ((htmlParserCtxtPtr)ctx)->_private;
    if (stopped(ctx, st) || len <= 0) return;
    int r;
    if (st->skip) {
        /* Only a special element's own text (skip == 1) counts. */
        r = st->special_kind && st->skip == 1 ? buf_add(&st->special, (const char *)ch, len) : 0;
    } else {
        r = data(st, (const char *)ch, len);
    }
    if (r < 0) fail(st);
}

static PyObject *to_list(const Longs *a) {
    PyObject *list = PyList_New(a->len);
    if (list == NULL) return NULL;
    for (Py_ssize_t i = 0; i < a->len; i++) {
        PyObject *o = PyLong_FromLong(a->p[i]);
        if (o == NULL) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, o);
    }
    return list;
}

static void clear_state(State *st) {
    Py_XDECREF(st->tag); Py_XDECREF(st->weight); Py_XDECREF(st->junk); Py_XDECREF(st->ident);
    Py_XDECREF(st->b_node); Py_XDECREF(st->b_text); Py_XDECREF(st->b_link);
    Py_XDECREF(st->headings); Py_XDECREF(st->images); Py_XDECREF(st->links);
    Py_XDECREF(st->time_dt); Py_XDECREF(st->inline_code);
    PyMem_Free(st->parent.p); PyMem_Free(st->mask_of.p); PyMem_Free(st->end.p);
    PyMem_Free(st->text_len.p); PyMem_Free(st->link_len.p); PyMem_Free(st->node_flags.p);
    PyMem_Free(st->stack.p); PyMem_Free(st->node_stack.p); PyMem_Free(st->cap_start.p);
    PyMem_Free(st->buf.p); PyMem_Free(st->cap.p); PyMem_Free(st->scratch.p);
    for (Py_ssize_t i = 0; i < st->cap_obj.len; i++) Py_XDECREF(st->cap_obj.p[i]);
    PyMem_Free(st->cap_obj.p);
    for (Py_ssize_t i = 0; i < st->open_links.len; i++) Py_XDECREF(st->open_links.p[i]);
    PyMem_Free(st->open_links.p);
    Py_XDECREF(st->open_heading);
    for (int i = 0; i < st->tag_cap; i++) {
        Py_XDECREF(st->tags[i].str);
        PyMem_Free(st->tags[i].name);
    }
    PyMem_Free(st->special.p);
    PyMem_Free(st->tags);
}

static PyObject *get_list(PyObject *w, const char *name) {
    PyObject *o = PyObject_GetAttrString(w, name);
    if (o != NULL && !PyList_Check(o)) {
        PyErr_Format(PyExc_TypeError, "Walked.%s is not a list", name);
        Py_CLEAR(o);
    }
    return o;
}

static PyObject *walk(PyObject *self, PyObject *arg) {
    (void)self;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "_saxwalk.configure() was not called");
        return NULL;
    }
    Py_buffer data;
    if (PyObject_GetBuffer(arg, &data, PyBUF_SIMPLE) < 0) return NULL;
    if (data.len > INT_MAX) {
        PyBuffer_Release(&data);
        PyErr_SetString(PyExc_ValueError, "walk(): more than 2 GB of HTML");
        return NULL;
    }
    State *st = PyMem_Calloc(1, sizeof(State));
    if (st == NULL) { PyBuffer_Release(&data); return PyErr_NoMemory(); }
    PyObject *result = NULL;
    st->w = PyObject_CallNoArgs(cfg_walked);
    if (st->w == NULL) goto out;
    if (!(st->tag = get_list(st->w, "tag")) || !(st->weight = get_list(st->w, "weight")) ||
        !(st->junk = get_list(st->w, "junk")) || !(st->ident = get_list(st->w, "ident")) ||
        !(st->b_node = get_list(st->w, "b_node")) || !(st->b_text = get_list(st->w, "b_text")) ||
        !(st->b_link = get_list(st->w, "b_link")) || !(st->headings = get_list(st->w, "headings")) ||
        !(st->images = get_list(st->w, "images")) || !(st->links = get_list(st->w, "links")) ||
        !(st->time_dt = get_list(st->w, "time_datetimes")) ||
        !(st->inline_code = get_list(st->w, "inline_code")))
        goto out;
    st->cur_node = -1;
    st->last_b_node = -2;
    if (longs_push(&st->node_stack, -1) < 0) goto out;

    /* Only the events the walk needs: no tree, no doctype, no comments.
     * initialized = 1 asks for libxml2's SAX1 element events, which its
     * HTML parser makes (and lxml's parser target receives). */
    htmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.startElement = sax_start;
    sax.endElement = sax_end;
    sax.characters = sax.ignorableWhitespace = sax.cdataBlock = sax_characters;
    sax.initialized = 1;
    st->ctxt = new_sax_parser_ctxt(&sax, NULL);
    if (st->ctxt == NULL) { PyErr_NoMemory(); goto out; }
    st->ctxt->_private = st;
    /* The GIL stays held: the callbacks make Python objects throughout. */
    htmlDocPtr doc = ctxt_read_memory(st->ctxt, data.buf, (int)data.len, NULL, "utf-8", PARSE_OPTIONS);
    if (doc != NULL) free_doc(doc);
    if (st->ctxt->myDoc != NULL && st->ctxt->myDoc != doc) free_doc(st->ctxt->myDoc);
    st->ctxt->myDoc = NULL;
    if (st->failed) goto out;
    /* _Walker.close */
    if (flush(st, -1) < 0) goto out;
    PyObject *lists[5] = {to_list(&st->parent), to_list(&st->mask_of), to_list(&st->end),
                          to_list(&st->text_len), to_list(&st->link_len)};
    const char *names[5] = {"parent", "mask", "end", "text_len", "link_len"};
    int r = 0;
    for (int i = 0; i < 5; i++) {
        if (r == 0 && (lists[i] == NULL || PyObject_SetAttrString(st->w, names[i], lists[i]) < 0)) r = -1;
        Py_XDECREF(lists[i]);
    }
    if (r < 0) goto out;
    result = st->w;
    st->w = NULL;
out:
    if (st->ctxt != NULL) free_parser_ctxt(st->ctxt);
    PyBuffer_Release(&data);
    Py_XDECREF(st->w);
    clear_state(st);
    PyMem_Free(st);
    return result;
}

/* The libxml2 functions, from the lxml module file at `path` (already
 * loaded: RTLD_NOLOAD), into `fns` (new_sax_parser_ctxt, ctxt_read_memory,
 * free_parser_ctxt, free_doc, stop_parser). */
static int load_libxml2(const char *path, void *fns[5]) {
    static const char *const names[5] = {"htmlNewSAXParserCtxt", "htmlCtxtReadMemory", "htmlFreeParserCtxt",
                                         "xmlFreeDoc", "xmlStopParser"};
    void *lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    if (lib == NULL) {
        PyErr_Format(PyExc_ImportError, "lxml's module is not loaded: %s", dlerror());
        return -1;
    }
    /* The handle stays open: lxml's module is never unloaded. */
    for (int i = 0; i < 5; i++) {
        fns[i] = dlsym(lib, names[i]);
        if (fns[i] == NULL) {
            PyErr_Format(PyExc_ImportError, "lxml's module does not export libxml2's %s", names[i]);
            return -1;
        }
    }
    return 0;
}

/* Everything is read and checked before anything is set, so that a failed
 * call leaves an earlier configuration whole.  walk.py calls it once per
 * process (c_walker); calling it while another thread walks is not supported. */
static PyObject *configure(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *weights, *junks;
    PyObject *objs[19];
    long bits[4];
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOOOOOOllll", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &objs[6], &objs[7], &objs[8], &objs[9], &objs[10], &objs[11], &objs[12],
                          &objs[13], &objs[14], &objs[15], &objs[16], &objs[17], &objs[18], &weights, &junks,
                          &bits[0], &bits[1], &bits[2], &bits[3]))
        return NULL;
    if (!PyDict_Check(objs[0]) || !PyDict_Check(objs[2]) || !PyUnicode_Check(objs[18])) {
        PyErr_SetString(PyExc_TypeError, "configure(): tag_info and value_cache dicts, lxml's file");
        return NULL;
    }
    double weight[16];
    int junk[16];
    PyObject *w = PySequence_Fast(weights, "weights"), *j = PySequence_Fast(junks, "junk");
    if (w == NULL || j == NULL || PySequence_Fast_GET_SIZE(w) != 16 || PySequence_Fast_GET_SIZE(j) != 16) {
        Py_XDECREF(w); Py_XDECREF(j);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "configure(): 16 weights and junk verdicts");
        return NULL;
    }
    int ok = 1;
    for (int i = 0; i < 16 && ok; i++) {
        weight[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(w, i));
        ok = !(weight[i] == -1.0 && PyErr_Occurred());
        if (ok) {
            junk[i] = PyObject_IsTrue(PySequence_Fast_GET_ITEM(j, i));
            ok = junk[i] >= 0;
        }
    }
    Py_DECREF(w);
    Py_DECREF(j);
    if (!ok) return NULL;
    const char *lxml_path = PyUnicode_AsUTF8(objs[18]);
    void *fns[5];
    if (lxml_path == NULL || load_libxml2(lxml_path, fns) < 0) return NULL;

    new_sax_parser_ctxt = (NewSAXParserCtxtFn)fns[0];
    ctxt_read_memory = (CtxtReadMemoryFn)fns[1];
    free_parser_ctxt = (FreeParserCtxtFn)fns[2];
    free_doc = (FreeDocFn)fns[3];
    stop_parser = (StopParserFn)fns[4];
    memcpy(cfg_weight, weight, sizeof weight);
    memcpy(cfg_junk, junk, sizeof junk);
    cfg_hidden_bit = bits[0];
    cfg_in_pre = bits[1];
    cfg_in_code = bits[2];
    cfg_in_heading = bits[3];
    PyObject **slots[18] = {&cfg_tag_info, &cfg_role_bits, &cfg_value_cache, &cfg_value_bits,
                            &cfg_hidden_style, &cfg_normalize, &cfg_collapse, &cfg_read_img,
                            &cfg_read_meta, &cfg_read_link_rel, &cfg_read_base, &cfg_is_json_ld,
                            &cfg_finish_special, &cfg_strip_lang, &cfg_rel_tokens, &cfg_walked,
                            &cfg_raw_link, &cfg_raw_heading};
    for (int i = 0; i < 18; i++) {
        Py_INCREF(objs[i]);
        Py_XSETREF(*slots[i], objs[i]);
    }
    configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"walk", walk, METH_O, "walk(utf8_html: bytes) -> Walked: unob.summarizer.walk's walk, in C."},
    {"configure", configure, METH_VARARGS, "Set the tables and callbacks of unob.summarizer.walk."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "unob.summarizer._saxwalk",
    "The walk of unob.summarizer.walk in C, on libxml2's parse events (see walk.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__saxwalk(void) { return PyModule_Create(&module); }
