-- Small helpers shared by every kind: reading SRD values that may be
-- absent, null, a plain string or an {index, name, url} reference.
-- Globals as upvalues: a global is a table lookup on every use.
local type, tostring, pairs, ipairs, next = type, tostring, pairs, ipairs, next
local companion = require("companion")

local util = {}

local find, sub = string.find, string.sub

local function byte_at(s, i)
  return sub(s, i, i)
end

-- JSON null arrives as this sentinel; it is never a usable value.
local null = companion.null
local format_number = companion.format.number
local concat = table.concat

-- text returns v as a string, or "" when it is absent, null or a table.
-- (The helpers are locals too: a call through the module table reads it
-- through its read-only proxy, two lookups more per call.)
local function text(v)
  local t = type(v)
  if t == "string" then
    return v
  elseif t == "number" then
    return format_number(v)
  elseif t == "boolean" then
    return v and "yes" or "no"
  end
  return ""
end
util.text = text

-- name_of reads the display name of an SRD reference ({index, name, url})
-- and tolerates the plain strings hand-written content tends to use.
local function name_of(v)
  if type(v) == "table" and v ~= null then
    local name = v.name
    if type(name) == "string" then
      return name
    end
    local index = v.index
    if type(index) == "string" then
      return index
    end
    return ""
  end
  return text(v)
end
util.name_of = name_of

-- list returns v when it is a non-empty sequence, else an empty table, so
-- callers can always iterate with ipairs.
local function list(v)
  if type(v) == "table" and v ~= null then
    return v
  end
  return {}
end
util.list = list

-- names maps a list of references (or strings) to their names, skipping
-- empty ones.
function util.names(v)
  local out, k = {}, 0
  local items = list(v)
  for i = 1, #items do
    local n = name_of(items[i])
    if n ~= "" then
      k = k + 1
      out[k] = n
    end
  end
  return out
end

-- lower_first lowers the first letter of a sentence fragment ("A tiny ball"
-- -> "a tiny ball") unless the first word is an acronym ("DC", "AC").
function util.lower_first(s)
  local first, second = s:sub(1, 1), s:sub(2, 2)
  if second:match("%u") then
    return s
  end
  return first:lower() .. s:sub(2)
end

-- upper_first capitalises the first letter ("evocation" -> "Evocation").
function util.upper_first(s)
  return s:sub(1, 1):upper() .. s:sub(2)
end

-- strip_period removes one trailing full stop.
function util.strip_period(s)
  if s:sub(-1) == "." then
    return s:sub(1, -2)
  end
  return s
end

-- trim removes surrounding white space.
function util.trim(s)
  return (s:gsub("^%s+", ""):gsub("%s+$", ""))
end

-- join joins the non-empty strings of a list with sep.
function util.join(list, sep)
  local out = {}
  for i = 1, #list do
    local s = list[i]
    if s ~= nil and s ~= "" then
      out[#out + 1] = s
    end
  end
  return concat(out, sep or ", ")
end

-- slug_of_url returns the last path segment of an SRD url
-- ("/api/2014/spells/bless" -> "bless").
function util.slug_of_url(url)
  if type(url) ~= "string" then
    return ""
  end
  return url:match("([^/]+)/?$") or ""
end

-- ref_slug returns the slug an SRD reference points at: its index, else the
-- last segment of its url.
function util.ref_slug(v)
  if type(v) ~= "table" or v == null then
    return ""
  end
  if type(v.index) == "string" and v.index ~= "" then
    return v.index
  end
  return util.slug_of_url(v.url)
end

-- add_refs appends "kind.slug" to refs for each element of list that names
-- a reference (see ref_slug); with field, the reference is that field of
-- each element, and elements that are not tables are skipped.
function util.add_refs(refs, kind, list, field)
  for _, v in ipairs(util.list(list)) do
    if field then
      v = type(v) == "table" and v[field] or nil
    end
    local slug = util.ref_slug(v)
    if slug ~= "" then
      refs[#refs + 1] = kind .. "." .. slug
    end
  end
  return refs
end

-- number returns v when it is a number, else nil.
local function number(v)
  if type(v) == "number" then
    return v
  end
  return nil
end
util.number = number

-- dice_text spaces a dice formula the way stat blocks print it:
-- "18d10+36" -> "18d10 + 36", "2d6-1" -> "2d6 - 1".
function util.dice_text(formula)
  if type(formula) ~= "string" then
    return ""
  end
  local plus, minus = find(formula, "+", 1, true), find(formula, "-", 1, true)
  if not (plus or minus or find(formula, " ", 1, true)) then
    return formula -- "2d6": nothing to space
  end
  -- "18d10+36": one sign and no white space, the usual SRD form, spaced
  -- without the two pattern passes below (gopher-lua compiles a pattern
  -- on every call).
  local at = plus or minus
  if at and not (plus and minus) and not find(formula, byte_at(formula, at), at + 1, true) and not find(formula, "%s") then
    return sub(formula, 1, at - 1) .. " " .. byte_at(formula, at) .. " " .. sub(formula, at + 1)
  end
  local s = formula:gsub("%s+", "")
  s = s:gsub("([%+%-])", " %1 ")
  return s
end

-- opt returns nil for an empty string or an empty table, else v. Views
-- leave optional lines out rather than send them empty; templates test
-- them with {% if %}.
local function opt(v)
  if v == "" or (type(v) == "table" and next(v) == nil) then
    return nil
  end
  return v
end
util.opt = opt

-- drop_empty removes the listed keys of a view whose values are empty.
function util.drop_empty(view, keys)
  for i = 1, #keys do
    local k = keys[i]
    view[k] = opt(view[k])
  end
  return view
end

-- property returns a {label, value} row when value is not empty.
function util.property(rows, label, value)
  if value ~= nil and value ~= "" then
    rows[#rows + 1] = { label = label, value = value }
  end
end

return util
