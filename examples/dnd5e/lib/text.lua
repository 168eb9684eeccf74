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
--   { type = "p", lead = "Name.", text = "..." }   (lead is "" when absent)
--   { type = "list", items = { "...", ... } }
--   { type = "table", caption = "...", head = { ... }, rows = { { ... }, ... } }
local text = {}

local function clean(s)
  if s:find("*", 1, true) then
    s = s:gsub("%*%*%*?", "")
  end
  return s
end

local function cells(line)
  local out = {}
  local body = line:gsub("^%s*|", ""):gsub("|%s*$", "")
  for cell in (body .. "|"):gmatch("([^|]*)|") do
    out[#out + 1] = clean((cell:gsub("^%s+", ""):gsub("%s+$", "")))
  end
  return out
end

local function is_separator(line)
  return line:match("^%s*|[%s%-:|]+$") ~= nil
end

local function paragraph(line)
  local lead, rest = line:match("^%*%*%*(.-)%*%*%*%s*(.*)$")
  if lead then
    return { type = "p", lead = clean(lead), text = clean(rest) }
  end
  return { type = "p", lead = "", text = clean(line) }
end

-- blocks converts a list of paragraphs, or one string with line breaks.
function text.blocks(source)
  local lines
  if type(source) == "string" then
    lines = {}
    for line in source:gmatch("[^\n]+") do
      lines[#lines + 1] = line
    end
  elseif type(source) == "table" then
    lines = source
  else
    return {}
  end

  local out = {}
  local current_list, current_table
  for _, raw in ipairs(lines) do
    if type(raw) == "string" then
      local line = raw:gsub("^%s+", ""):gsub("%s+$", "")
      local first = line:sub(1, 1)
      if line == "" then
        current_list, current_table = nil, nil
      elseif first == "|" then
        current_list = nil
        if current_table == nil then
          local caption = ""
          local previous = out[#out]
          if previous and previous.type == "p" and previous.lead == "" and previous.text:sub(-8) == " (table)" then
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

-- plain joins a list of paragraphs (or a string) into one string, for
-- list rows and summaries.
function text.plain(source)
  if type(source) == "string" then
    return clean(source)
  end
  if type(source) ~= "table" then
    return ""
  end
  local parts = {}
  for _, p in ipairs(source) do
    if type(p) == "string" then
      parts[#parts + 1] = clean(p)
    end
  end
  return table.concat(parts, "\n")
end

return text
