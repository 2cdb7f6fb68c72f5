/* The walk of unob.summarizer.walk, in C, over the tree lxml has parsed.
 *
 * walk.py's _Walker receives libxml2's parse events through lxml's parser
 * target interface: for every start tag lxml builds a dict of the attributes
 * and str objects of the names and values, and calls a Python method; for
 * every text node it builds a str.  That per-event work was about half of
 * deriving a page (python3-doc: 34 M instructions a page for the walk, 17 M
 * for lxml's parse alone).  This module instead lets lxml build its tree
 * (libxml2's own C tree builder) and walks the libxml2 nodes directly,
 * making Python objects only for what the walk keeps: block texts, ids,
 * links, headings.  Vocabulary lookups, text normalization and rare elements
 * (img, meta, link, ...) call back into walk.py, so each rule is written once.
 *
 * The result must equal _Walker's for every input: walk.py is the
 * reference, each C function names the _Walker code it mirrors, and
 * tests/summarizer/test_treewalk.py compares both walkers on real pages and
 * on generated junk.  Only libxml2's public node structs are read (no
 * libxml2 function is called), with the headers lxml ships
 * (lxml.get_include()).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include <libxml/tree.h>

/* lxml's public element layout (lxml/etree.h, "struct LxmlElement"; unchanged
 * since lxml 2).  walk() checks it: lxml stores the proxy in _private. */
typedef struct {
    PyObject_HEAD
    PyObject *_doc;
    xmlNode *_c_node;
    PyObject *_tag;
} LxmlElement;

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
static PyObject *cfg_element_type; /* lxml.etree._Element */
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

/* Raw allocations to free later (attribute values joined from several nodes). */
typedef struct { void **p; Py_ssize_t len, cap; } Ptrs;

static int ptrs_push(Ptrs *a, void *item) {
    if (a->len == a->cap && grow((void **)&a->p, &a->cap, sizeof *a->p) < 0) return -1;
    a->p[a->len++] = item;
    return 0;
}

/* ---- tag information, cached per walk by name pointer ------------------ */

typedef struct {
    const xmlChar *name; /* NULL: empty slot */
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
    TagInfo *tags; /* open addressing by name pointer; capacity a power of 2 */
    int n_tags, tag_cap;
} State;

static int grow_tags(State *st) {
    int cap = st->tag_cap ? st->tag_cap * 2 : 64;
    TagInfo *tags = PyMem_Calloc((size_t)cap, sizeof(TagInfo));
    if (tags == NULL) { PyErr_NoMemory(); return -1; }
    for (int i = 0; i < st->tag_cap; i++) {
        TagInfo *old = &st->tags[i];
        if (old->name == NULL) continue;
        size_t h = ((size_t)old->name >> 4) & (size_t)(cap - 1);
        while (tags[h].name != NULL) h = (h + 1) & (size_t)(cap - 1);
        tags[h] = *old;
    }
    PyMem_Free(st->tags);
    st->tags = tags;
    st->tag_cap = cap;
    return 0;
}

/* The TagInfo of an element name, by pointer (a walk never sees a name
 * pointer change its text: the tree is not modified meanwhile). */
static TagInfo *tag_info(State *st, const xmlChar *name) {
    if (st->n_tags * 2 >= st->tag_cap && grow_tags(st) < 0) return NULL;
    size_t mask = (size_t)(st->tag_cap - 1), h = ((size_t)name >> 4) & mask;
    TagInfo *t;
    for (t = &st->tags[h]; t->name != NULL; t = &st->tags[h]) {
        if (t->name == name) return t;
        h = (h + 1) & mask;
    }
    PyObject *s = PyUnicode_DecodeUTF8((const char *)name, (Py_ssize_t)strlen((const char *)name), "replace");
    if (s == NULL) return NULL;
    PyObject *info = PyDict_GetItemWithError(cfg_tag_info, s); /* borrowed */
    if (info == NULL && PyErr_Occurred()) { Py_DECREF(s); return NULL; }
    t->kind = K_BLOCK; t->loc = 0; t->level = 0; t->flags = 0;
    if (info != NULL && !PyArg_ParseTuple(info, "ilii", &t->kind, &t->loc, &t->level, &t->flags)) {
        Py_DECREF(s);
        return NULL;
    }
    t->name = name;
    t->str = s;
    st->n_tags++;
    return t;
}

/* ---- attributes ---------------------------------------------------------- */

/* The attributes the walk reads; a value is NULL when absent. */
typedef struct {
    int count;
    const char *cls, *id, *role, *style, *hidden, *aria_hidden, *href, *rel, *lang, *xml_lang,
        *name, *alt, *datetime;
    Ptrs owned; /* joined values to free */
} Attrs;

/* An attribute's value.  The HTML parser makes it one text node (or none);
 * several are joined into a new allocation, stored in *owned for the caller
 * to free.  NULL on error. */
static const char *attr_value(const xmlAttr *a, char **owned) {
    const xmlNode *c = a->children;
    *owned = NULL;
    if (c == NULL) return "";
    if (c->next == NULL) return c->content ? (const char *)c->content : "";
    Buf joined = {NULL, 0, 0};
    for (; c != NULL; c = c->next)
        if (c->content && buf_add(&joined, (const char *)c->content, (Py_ssize_t)strlen((const char *)c->content)) < 0) {
            PyMem_Free(joined.p);
            return NULL;
        }
    if (buf_add(&joined, "", 1) < 0) { PyMem_Free(joined.p); return NULL; }
    *owned = joined.p;
    return joined.p;
}

static int read_attrs(const xmlNode *node, Attrs *at) {
    at->count = 0;
    at->cls = at->id = at->role = at->style = at->hidden = at->aria_hidden = NULL;
    at->href = at->rel = at->lang = at->xml_lang = at->name = at->alt = at->datetime = NULL;
    for (const xmlAttr *a = node->properties; a != NULL; a = a->next) {
        at->count++;
        const char *n = (const char *)a->name;
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
        if (slot != NULL && *slot == NULL) {
            char *owned;
            *slot = attr_value(a, &owned);
            if (*slot == NULL) return -1;
            if (owned != NULL && ptrs_push(&at->owned, owned) < 0) {
                PyMem_Free(owned);
                return -1;
            }
        }
    }
    return 0;
}

static void free_owned(Attrs *at) {
    for (Py_ssize_t i = 0; i < at->owned.len; i++) PyMem_Free(at->owned.p[i]);
    at->owned.len = 0;
}

/* All attributes as a dict, as lxml gives a parser target (rare elements). */
static PyObject *attr_dict(const xmlNode *node) {
    PyObject *d = PyDict_New();
    if (d == NULL) return NULL;
    for (const xmlAttr *a = node->properties; a != NULL; a = a->next) {
        char *owned;
        const char *v = attr_value(a, &owned);
        if (v == NULL) { Py_DECREF(d); return NULL; }
        PyObject *key = PyUnicode_DecodeUTF8((const char *)a->name, (Py_ssize_t)strlen((const char *)a->name), "replace");
        PyObject *val = key ? PyUnicode_DecodeUTF8(v, (Py_ssize_t)strlen(v), "replace") : NULL;
        PyMem_Free(owned);
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
    return r;
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
static int data(State *st, const xmlChar *content) {
    if (content == NULL) return 0;
    Py_ssize_t n = (Py_ssize_t)strlen((const char *)content);
    if (n == 0) return 0;
    if (buf_add(&st->buf, (const char *)content, n) < 0) return -1;
    if (st->in_link) st->buf_link += code_points((const char *)content, n);
    if (st->cap_start.len && buf_add(&st->cap, (const char *)content, n) < 0) return -1;
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
static int script_is_json_ld(const xmlNode *node) {
    static const char want[] = "application/ld+json";
    for (const xmlAttr *a = node->properties; a != NULL; a = a->next) {
        if (strcmp((const char *)a->name, "type") != 0) continue;
        char *owned;
        const char *v = attr_value(a, &owned);
        if (v == NULL) return -1;
        int result = 0;
        size_t n = strlen(v), i = 0;
        for (size_t k = 0; k < n; k++)
            if ((unsigned char)v[k] >= 0x80) result = 2;
        if (result == 0) {
            /* str.strip() on ASCII: space, \t\n\v\f\r and \x1c-\x1f. */
#define ASCII_SPACE(c) ((c) == ' ' || ((c) >= 0x09 && (c) <= 0x0D) || ((c) >= 0x1C && (c) <= 0x1F))
            while (i < n && ASCII_SPACE(v[i])) i++;
            while (n > i && ASCII_SPACE(v[n - 1])) n--;
#undef ASCII_SPACE
            result = n - i == sizeof want - 1;
            for (size_t k = 0; result && k < n - i; k++) {
                char c = v[i + k];
                if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
                result = c == want[k];
            }
        }
        PyMem_Free(owned);
        return result;
    }
    return 0; /* no type: "" is not JSON-LD */
}

/* _Walker._start_special: the element's content is skipped; its attributes
 * or (title, JSON-LD) its own text count. */
static int start_special(State *st, xmlNode *node, TagInfo *t) {
    int kind = t->kind, special = 0;
    PyObject *r = NULL;
    if (kind == K_META || kind == K_LINK || kind == K_BASE) {
        if (node->properties == NULL) return 0;
        PyObject *d = attr_dict(node);
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
    } else if (kind == K_SCRIPT && node->properties != NULL) {
        special = script_is_json_ld(node);
        if (special < 0) return -1;
    }
    if (special == 2) { /* undecided in C: walk._is_json_ld */
        PyObject *d = attr_dict(node);
        if (d == NULL) return -1;
        r = PyObject_CallOneArg(cfg_is_json_ld, d);
        Py_DECREF(d);
        if (r == NULL) return -1;
        special = PyObject_IsTrue(r);
        Py_DECREF(r);
        if (special < 0) return -1;
    }
    if (!special) return 0;
    Buf text = {NULL, 0, 0};
    for (xmlNode *c = node->children; c != NULL; c = c->next)
        if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) && c->content &&
            buf_add(&text, (const char *)c->content, (Py_ssize_t)strlen((const char *)c->content)) < 0) {
            PyMem_Free(text.p);
            return -1;
        }
    PyObject *s = PyUnicode_DecodeUTF8(text.p ? text.p : "", text.len, "replace");
    PyMem_Free(text.p);
    if (s == NULL) return -1;
    r = PyObject_CallFunctionObjArgs(cfg_finish_special, st->w, kind == K_TITLE ? Py_True : Py_False, s, NULL);
    Py_DECREF(s);
    if (r == NULL) return -1;
    Py_DECREF(r);
    if (kind == K_TITLE) st->title_done = 1;
    return 0;
}

/* _Walker.start.  Returns 1 when the element was pushed (its children are
 * walked and end() follows), 0 when it was skipped whole, -1 on error. */
static int start(State *st, xmlNode *node, Attrs *at) {
    TagInfo *t = tag_info(st, node->name);
    if (t == NULL) return -1;
    int kind = t->kind;
    if (read_attrs(node, at) < 0) return -1;
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
        return start_special(st, node, t) < 0 ? -1 : 0;
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
            if (!truthy && par == nid - 1 && (st->node_flags.p[par] & F_SECTIONING) &&
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
            PyObject *d = attr_dict(node);
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
            code = text ? PyObject_CallOneArg(cfg_collapse, text) : NULL;
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

/* Document order over the tree: start/text/end as the parser events came. */
static int run(State *st, xmlNode *node) {
    Attrs at;
    memset(&at, 0, sizeof at);
    int r = 0;
    while (node != NULL && r == 0) {
        if (node->type == XML_ELEMENT_NODE) {
            r = start(st, node, &at);
            free_owned(&at);
            if (r < 0) break;
            if (r == 1) {
                r = 0;
                if (node->children != NULL) {
                    node = node->children;
                    continue;
                }
                if (end(st) < 0) { r = -1; break; }
            }
        } else if (node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE) {
            if (data(st, node->content) < 0) { r = -1; break; }
        }
        while (node->next == NULL) {
            node = node->parent;
            if (node == NULL || node->type != XML_ELEMENT_NODE) goto done;
            if (end(st) < 0) { r = -1; goto done; }
        }
        node = node->next;
    }
done:
    PyMem_Free(at.owned.p);
    return r;
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
    for (int i = 0; i < st->tag_cap; i++) Py_XDECREF(st->tags[i].str);
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

static PyObject *walk(PyObject *self, PyObject *root) {
    (void)self;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "_treewalk.configure() was not called");
        return NULL;
    }
    if (!PyObject_TypeCheck(root, (PyTypeObject *)cfg_element_type)) {
        PyErr_SetString(PyExc_TypeError, "walk() needs an lxml element");
        return NULL;
    }
    xmlNode *c_root = ((LxmlElement *)root)->_c_node;
    if (c_root == NULL || c_root->_private != (void *)root || c_root->doc == NULL) {
        PyErr_SetString(PyExc_TypeError, "walk() needs an lxml element (layout check failed)");
        return NULL;
    }
    State *st = PyMem_Calloc(1, sizeof(State));
    if (st == NULL) return PyErr_NoMemory();
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
    /* Every top-level node of the document, as the parser reported them. */
    if (run(st, c_root->doc->children) < 0) goto out;
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
    Py_XDECREF(st->w);
    clear_state(st);
    PyMem_Free(st);
    return result;
}

static PyObject *configure(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *weights, *junks;
    PyObject *objs[19];
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOOOOOOllll", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &objs[6], &objs[7], &objs[8], &objs[9], &objs[10], &objs[11], &objs[12],
                          &objs[13], &objs[14], &objs[15], &objs[16], &objs[17], &objs[18], &weights, &junks,
                          &cfg_hidden_bit, &cfg_in_pre, &cfg_in_code, &cfg_in_heading))
        return NULL;
    if (!PyDict_Check(objs[0]) || !PyDict_Check(objs[2]) || !PyType_Check(objs[18])) {
        PyErr_SetString(PyExc_TypeError, "configure(): tag_info and value_cache dicts, element type");
        return NULL;
    }
    PyObject *w = PySequence_Fast(weights, "weights"), *j = PySequence_Fast(junks, "junk");
    if (w == NULL || j == NULL || PySequence_Fast_GET_SIZE(w) != 16 || PySequence_Fast_GET_SIZE(j) != 16) {
        Py_XDECREF(w); Py_XDECREF(j);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "configure(): 16 weights and junk verdicts");
        return NULL;
    }
    for (int i = 0; i < 16; i++) {
        cfg_weight[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(w, i));
        cfg_junk[i] = PyObject_IsTrue(PySequence_Fast_GET_ITEM(j, i));
    }
    Py_DECREF(w);
    Py_DECREF(j);
    if (PyErr_Occurred()) return NULL;
    PyObject **slots[19] = {&cfg_tag_info, &cfg_role_bits, &cfg_value_cache, &cfg_value_bits,
                            &cfg_hidden_style, &cfg_normalize, &cfg_collapse, &cfg_read_img,
                            &cfg_read_meta, &cfg_read_link_rel, &cfg_read_base, &cfg_is_json_ld,
                            &cfg_finish_special, &cfg_strip_lang, &cfg_rel_tokens, &cfg_walked,
                            &cfg_raw_link, &cfg_raw_heading, &cfg_element_type};
    for (int i = 0; i < 19; i++) {
        Py_INCREF(objs[i]);
        Py_XSETREF(*slots[i], objs[i]);
    }
    configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"walk", walk, METH_O, "walk(root) -> Walked: unob.summarizer.walk's walk over an lxml tree."},
    {"configure", configure, METH_VARARGS, "Set the tables and callbacks of unob.summarizer.walk."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "unob.summarizer._treewalk",
    "The walk of unob.summarizer.walk in C, over a parsed lxml tree (see walk.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__treewalk(void) { return PyModule_Create(&module); }
