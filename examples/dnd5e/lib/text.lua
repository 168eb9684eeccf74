-- Turns SRD description text into blocks a template can lay out without
-- interpreting Markdown (templates are autoescaped, so no HTML is built here).
--
-- SRD descriptions are either a list of paragraphs (spells, items) or one
-- string with "\n" line breaks (monster abilities). Inside them:
--   "***Name.*** text"      a paragraph with a bold-italic lead-in
--   "- item"                bullet list lines
--   "| a | b |" + "|---|"   Markdown tables (header, separator, rows)
--   "Title (table)"         the caption line the SRD puts before a table
-- Blocks:
--   { type = "p", lead = "Name.", text = "..." }   (lead only when there is one)
--   { type = "list", items = { "...", ... } }
--   { type = "table", caption = "...", head = { ... }, rows = { { ... }, ... } }
-- Globals as upvalues: a global is a table lookup on every use.
local type, tostring, pairs, ipairs, next = type, tostring, pairs, ipairs, next
local text = {}

local function clean(s)
  if s:find("*", 1, true) then
    s = s:gsub("%*%*%*?", "")
  end
  return s
end

-- trim removes surrounding white space; most lines have none, so check the
-- end bytes before paying for a pattern.
local function is_space(b)
  return b == 32 or b == 9 or b == 10 or b == 13
end

local function trim(s)
  if is_space(s:byte(1)) or is_space(s:byte(-1)) then
    return (s:gsub("^%s+", ""):gsub("%s+$", ""))
  end
  return s
end

local function cells(line)
  local out = {}
  local body = line:gsub("^%s*|", ""):gsub("|%s*$", "")
  for cell in (body .. "|"):gmatch("([^|]*)|") do
    out[#out + 1] = clean(trim(cell))
  end
  return out
end

local function is_separator(line)
  return line:match("^%s*|[%s%-:|]+$") ~= nil
end

local find, sub = string.find, string.sub

local function paragraph(line)
  -- The pattern needs a leading "***"; most lines have none, and testing
  -- that is cheaper than compiling the pattern (gopher-lua compiles it on
  -- every call).
  if sub(line, 1, 3) == "***" then
    local lead, rest = line:match("^%*%*%*(.-)%*%*%*%s*(.*)$")
    if lead then
      return { type = "p", lead = clean(lead), text = clean(rest) }
    end
  end
  return { type = "p", text = clean(line) }
end

-- lines splits on "\n", skipping empty lines (as gmatch("[^\n]+") does).
local function lines_of(source)
  local out, pos = {}, 1
  while true do
    local nl = find(source, "\n", pos, true)
    local line = sub(source, pos, nl and nl - 1 or -1)
    if line ~= "" then
      out[#out + 1] = line
    end
    if not nl then
      return out
    end
    pos = nl + 1
  end
end

-- blocks converts a list of paragraphs, or one string with line breaks.
function text.blocks(source)
  if source == nil then
    return {}
  end
  local lines
  if type(source) == "string" then
    if not source:find("\n", 1, true) then
      local line = trim(source)
      local first = line:sub(1, 1)
      if line ~= "" and first ~= "|" and first ~= "-" and first ~= "*" then
        return { { type = "p", text = clean(line) } }
      end
    end
    lines = lines_of(source)
  elseif type(source) == "table" then
    lines = source
  else
    return {}
  end

  local out = {}
  local current_list, current_table
  for i = 1, #lines do
    local raw = lines[i]
    if type(raw) == "string" then
      local line = trim(raw)
      local first = line:sub(1, 1)
      if line == "" then
        current_list, current_table = nil, nil
      elseif first == "|" then
        current_list = nil
        if current_table == nil then
          local caption = ""
          local previous = out[#out]
          if previous and previous.type == "p" and previous.lead == nil and previous.text:sub(-8) == " (table)" then
            caption = previous.text:sub(1, -9)
            out[#out] = nil
          end
          current_table = { type = "table", caption = caption, head = cells(line), rows = {} }
          out[#out + 1] = current_table
        elseif not is_separator(line) then
          current_table.rows[#current_table.rows + 1] = cells(line)
        end
      elseif (first == "-" or first == "*") and line:sub(2, 2) == " " then
        current_table = nil
        if current_list == nil then
          current_list = { type = "list", items = {} }
          out[#out + 1] = current_list
        end
        current_list.items[#current_list.items + 1] = clean(line:sub(3))
      else
        current_list, current_table = nil, nil
        out[#out + 1] = paragraph(line)
      end
    end
  end
  return out
end

-- lead_and_rest splits a description for a stat-block feature, whose
-- first paragraph follows the feature name on the same line: it returns
-- that paragraph's text ("" when the description starts with a list or a
-- table) and the blocks after it (nil when there are none). A one-line
-- description, the common case, builds no block at all.
function text.lead_and_rest(source)
  if type(source) == "string" and not source:find("\n", 1, true) then
    local line = trim(source)
    local first = line:sub(1, 1)
    if first ~= "|" and first ~= "-" and first ~= "*" then
      return clean(line), nil
    end
  end
  local blocks = text.blocks(source)
  local head = blocks[1]
  if head == nil then
    return "", nil
  end
  if head.type ~= "p" or head.lead ~= nil then
    return "", blocks
  end
  if #blocks == 1 then
    return head.text, nil
  end
  table.remove(blocks, 1)
  return head.text, blocks
end

return text
