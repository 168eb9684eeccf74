-- Reading the elements of a legacy compendium (Fight Club 5e, Encounter+):
-- the element arrives as a table (see docs/system-authoring.md, "companion.import"):
-- texts are strings, a child that repeats is a list, attributes are under
-- _attr. These helpers turn its strings into the values the SRD-shaped
-- data of this system holds.
local companion = require("companion")

local xml = {}

local take, list = companion.import.take, companion.import.list
xml.take, xml.list = take, list

local byte, sub, find = string.byte, string.sub, string.find

local function is_space(b)
  return b == 32 or b == 9 or b == 10 or b == 13
end

-- trim removes surrounding white space. Most values have none: the end
-- bytes are checked before anything else (gopher-lua compiles a pattern
-- on every call, and "%s+$" retries from every position).
local function trim(s)
  local n = #s
  if n == 0 or not (is_space(byte(s, 1)) or is_space(byte(s, n))) then
    return s
  end
  local i, j = 1, n
  while i <= j and is_space(byte(s, i)) do
    i = i + 1
  end
  while j >= i and is_space(byte(s, j)) do
    j = j - 1
  end
  return sub(s, i, j)
end
xml.trim = trim

-- text is the string of a value: a text element, the _text of one with
-- attributes, or "" (a repeated element gives its first).
local function text(v)
  local t = type(v)
  if t == "string" then
    return trim(v)
  elseif t == "table" then
    if v[1] ~= nil then
      return text(v[1])
    end
    if type(v._text) == "string" then
      return trim(v._text)
    end
  end
  return ""
end
xml.text = text

-- take_text takes a field and returns its text.
function xml.take_text(el, key)
  return text(take(el, key))
end

-- tonum is tonumber for numbers JSON can hold: nil for anything else
-- ("1e999" and 400 digits are infinite).
local function tonum(s)
  local n = tonumber(s)
  if n == nil or n ~= n or n == math.huge or n == -math.huge then
    return nil
  end
  return n
end
xml.tonum = tonum

-- number reads "12", "1.5", "-3"; nil for anything else.
local function number(v)
  local s = text(v)
  if s == "" then
    return nil
  end
  return tonum(s)
end
xml.number = number

-- yes reads YES/NO (and 1/0, true/false).
function xml.yes(v)
  local s = text(v):lower()
  return s == "yes" or s == "1" or s == "true"
end

-- slug: "Melf's Acid Arrow" -> "melfs-acid-arrow" (as entity slugs are made).
function xml.slug(name)
  local s = name:lower():gsub("['’]", ""):gsub("[^%w]+", "-"):gsub("^%-+", ""):gsub("%-+$", "")
  return s
end

-- ref: an SRD reference {index, name} for a name.
function xml.ref(name)
  return { index = xml.slug(name), name = name }
end

-- split: the trimmed, non-empty parts of s between separators sep (a
-- pattern class such as ",", ",;").
function xml.split(s, sep)
  local out = {}
  for part in (s or ""):gmatch("[^" .. sep .. "]+") do
    part = trim(part)
    if part ~= "" then
      out[#out + 1] = part
    end
  end
  return out
end

-- source: "System Reference Document 5.1 p. 312" -> { name, page }.
local function source(s)
  s = trim(s)
  local name, page = s:match("^(.-),?%s+p%.?%s*(%d+)$")
  if name then
    return { name = name, page = tonum(page) }
  end
  return { name = s }
end

-- sources reads a source line: several sources are separated by commas
-- when each names its page ("Monster Manual p. 12, Volo's Guide p. 3").
function xml.sources(s, out)
  out = out or {}
  s = trim(s or "")
  if s == "" then
    return out
  end
  local parts = xml.split(s, ",")
  local paged = #parts > 1
  for _, p in ipairs(parts) do
    if not p:match("p%.?%s*%d+$") then
      paged = false
    end
  end
  if paged then
    for _, p in ipairs(parts) do
      out[#out + 1] = source(p)
    end
  else
    out[#out + 1] = source(s)
  end
  return out
end

-- is_table_line: a row of a table written with bars ("d6 | Ideal").
local function is_table_line(line)
  return line:find("|", 1, true) ~= nil
end

-- BULLETS start list items (compared as strings: a Lua pattern class
-- would match their bytes one by one).
local BULLETS = { "•", "·", "▪", "◦" }

-- paragraphs turns text (a string, or the list a repeated <text> makes)
-- into paragraphs the views lay out (lib/text.lua): one per line, bullet
-- lines ("• item") as "- item", runs of lines with bars as a table. A
-- "Source: ..." line is taken out and returned as sources.
function xml.paragraphs(v, sources)
  local lines = {}
  for _, piece in ipairs(list(v)) do
    local s = type(piece) == "string" and piece or text(piece)
    local pos = 1
    while true do
      local nl = find(s, "\n", pos, true)
      local line = trim(sub(s, pos, nl and nl - 1 or -1))
      if line ~= "" then
        lines[#lines + 1] = line
      end
      if not nl then
        break
      end
      pos = nl + 1
    end
  end
  local out = {}
  local i = 1
  while i <= #lines do
    local line = lines[i]
    local first = byte(line, 1)
    local src = (first == 83 or first == 115) and line:match("^[Ss]ource:%s*(.+)$") or nil
    if src then
      if sources then
        xml.sources(src, sources)
      else
        out[#out + 1] = line
      end
      i = i + 1
    elseif is_table_line(line) and lines[i + 1] and is_table_line(lines[i + 1]) then
      while lines[i] and is_table_line(lines[i]) do
        local row = lines[i]
        if row:sub(1, 1) ~= "|" then
          row = "| " .. row .. " |"
        end
        out[#out + 1] = row
        i = i + 1
      end
    else
      for _, bullet in ipairs(BULLETS) do
        if line:sub(1, #bullet) == bullet then
          line = "- " .. trim(line:sub(#bullet + 1))
          break
        end
      end
      out[#out + 1] = line
      i = i + 1
    end
  end
  return out
end

-- joined is the paragraphs as one string with line breaks (the shape of
-- an SRD monster feature's desc).
function xml.joined(paras)
  return table.concat(paras, "\n")
end

-- rolls reads <roll description="Fire Damage" level="1">1d6</roll> and
-- <attack>Name|+4|1d10+2</attack> into
-- { name, dice, level, attack_bonus } entries.
function xml.rolls(roll_value, attack_value)
  local out = {}
  for _, a in ipairs(list(attack_value)) do
    local name, bonus, dice = text(a):match("^([^|]*)|([^|]*)|?(.*)$")
    if name then
      local r = { name = trim(name) }
      bonus = trim(bonus):gsub("^%+", "")
      if tonum(bonus) then
        r.attack_bonus = tonum(bonus)
      end
      if trim(dice) ~= "" then
        r.dice = trim(dice)
      end
      if r.attack_bonus or r.dice then
        out[#out + 1] = r
      end
    end
  end
  for _, rl in ipairs(list(roll_value)) do
    local dice = text(rl)
    if dice ~= "" then
      local r = { dice = dice }
      if type(rl) == "table" and type(rl._attr) == "table" then
        r.name = rl._attr.description
        r.level = tonum(rl._attr.level or "")
      end
      out[#out + 1] = r
    end
  end
  return out
end

-- compact removes the empty strings and empty lists of a data table
-- (what an element left blank: <spellAbility/>), in place.
function xml.compact(data)
  for k, v in pairs(data) do
    if v == "" or (type(v) == "table" and next(v) == nil) then
      data[k] = nil
    end
  end
  return data
end

-- SIZES: the letters of the formats.
xml.SIZES = { T = "Tiny", S = "Small", M = "Medium", L = "Large", H = "Huge", G = "Gargantuan", C = "Colossal" }

function xml.size(v)
  local s = text(v)
  return xml.SIZES[s:upper()] or s
end

-- ABILITIES: short names as written, to the SRD's.
xml.ABILITIES = {
  str = "STR", strength = "STR", dex = "DEX", dexterity = "DEX", con = "CON", constitution = "CON",
  int = "INT", intelligence = "INT", wis = "WIS", wisdom = "WIS", cha = "CHA", charisma = "CHA",
}

return xml
