package legacyxml

func readMap(v *values, el *Element) *Map {
	m := &Map{ID: el.Attr("id"), Parent: el.Attr("parent"), Sort: el.Attr("sort")}
	for _, c := range el.Children {
		switch c.Name {
		case "name":
			m.Name = v.text(c)
		case "slug":
			m.Slug = v.text(c)
		case "description", "descr":
			m.Description = v.text(c)
		case "image":
			m.Image = v.text(c)
		case "video":
			m.Video = v.text(c)
		case "canvas":
			m.Canvas = v.text(c)
		case "snapshot":
			m.Snapshot = v.text(c)
		case "floor":
			m.Floor = v.text(c)
		case "fog":
			m.Fog = v.text(c)
		case "gridSize":
			m.GridSize = v.float(c)
		case "gridOffsetX":
			m.GridOffsetX = v.float(c)
		case "gridOffsetY":
			m.GridOffsetY = v.float(c)
		case "gridColor":
			m.GridColor = v.text(c)
		case "gridVisible":
			m.GridVisible = v.boolean(c)
		case "gridType":
			m.GridType = v.text(c)
		case "gridScale":
			m.GridScale = v.float(c)
		case "gridUnits":
			m.GridUnits = v.text(c)
		case "scale":
			m.Scale = v.float(c)
		case "x":
			m.X = v.float(c)
		case "y":
			m.Y = v.float(c)
		case "zoom":
			m.Zoom = v.float(c)
		case "fogVisible", "fogOfWar":
			m.FogVisible = v.boolean(c)
		case "fogExploration":
			m.FogExploration = v.boolean(c)
		case "lineOfSight":
			m.LineOfSight = v.boolean(c)
		case "daylight", "losDaylight":
			m.Daylight = v.optFloat(c)
		case "marker":
			m.Markers = append(m.Markers, readMarker(v, c))
		case "tile":
			m.Tiles = append(m.Tiles, readTile(v, c))
		case "light":
			m.Lights = append(m.Lights, readLight(v, c))
		case "wall":
			m.Walls = append(m.Walls, readWall(v, c))
		case "token":
			m.Tokens = append(m.Tokens, readToken(v, c))
		case "drawing":
			m.Drawings = append(m.Drawings, readDrawing(v, c))
		default:
			m.Other = append(m.Other, c)
		}
	}
	return m
}

func readMarker(v *values, el *Element) Marker {
	var m Marker
	for _, c := range el.Children {
		switch c.Name {
		case "name":
			m.Name = v.text(c)
		case "label":
			m.Label = v.text(c)
		case "color", "gridColor": // the reference names the colour gridColor; its example writes color
			m.Color = v.text(c)
		case "shape":
			m.Shape = v.text(c)
		case "size":
			m.Size = v.text(c)
		case "hidden":
			m.Hidden = v.yes(c)
		case "locked":
			m.Locked = v.yes(c)
		case "x":
			m.X = v.float(c)
		case "y":
			m.Y = v.float(c)
		case "content":
			m.Content = reference(c)
		default:
			m.Other = append(m.Other, c)
		}
	}
	return m
}

func readTile(v *values, el *Element) Tile {
	t := Tile{ID: el.Attr("id")}
	for _, c := range el.Children {
		switch c.Name {
		case "x":
			t.X = v.float(c)
		case "y":
			t.Y = v.float(c)
		case "width":
			t.Width = v.float(c)
		case "height":
			t.Height = v.float(c)
		case "rotation", "roatation": // the reference misspells it once
			t.Rotation = v.float(c)
		case "opacity":
			t.Opacity = v.optFloat(c)
		case "layer":
			t.Layer = v.text(c)
		case "zIndex":
			t.ZIndex = v.int(c)
		case "hidden":
			t.Hidden = v.yes(c)
		case "locked":
			t.Locked = v.yes(c)
		case "asset":
			a := readAsset(v, c)
			t.Asset = &a
		case "light":
			l := readLight(v, c)
			t.Light = &l
		case "component", "comopnent":
			t.Components = append(t.Components, readComponent(v, c))
		default:
			t.Other = append(t.Other, c)
		}
	}
	return t
}

func readAsset(v *values, el *Element) Asset {
	a := Asset{ID: el.Attr("id"), Parent: el.Attr("parent"), Sort: el.Attr("sort")}
	for _, c := range el.Children {
		switch c.Name {
		case "name":
			a.Name = v.text(c)
		case "slug":
			a.Slug = v.text(c)
		case "type":
			a.Type = v.text(c)
		case "tags":
			a.Tags = v.text(c)
		case "resource":
			a.Resource = v.text(c)
		case "size":
			a.Size = v.text(c)
		case "frameWidth":
			a.FrameWidth = v.int(c)
		case "frameHeight":
			a.FrameHeight = v.int(c)
		case "duration":
			a.Duration = v.float(c)
		case "scale":
			a.Scale = v.float(c)
		case "gridAlign":
			a.GridAlign = v.yes(c)
		default:
			a.Other = append(a.Other, c)
		}
	}
	return a
}

func readLight(v *values, el *Element) Light {
	l := Light{ID: el.Attr("id")}
	for _, c := range el.Children {
		switch c.Name {
		case "enabled":
			l.Enabled = v.boolean(c)
		case "radiusMin":
			l.RadiusMin = v.float(c)
		case "radiusMax":
			l.RadiusMax = v.float(c)
		case "color":
			l.Color = v.text(c)
		case "opacity":
			l.Opacity = v.optFloat(c)
		case "alwaysVisible":
			l.AlwaysVisible = v.yes(c)
		case "x":
			l.X = v.float(c)
		case "y":
			l.Y = v.float(c)
		default:
			l.Other = append(l.Other, c)
		}
	}
	return l
}

func readWall(v *values, el *Element) Wall {
	w := Wall{ID: el.Attr("id")}
	for _, c := range el.Children {
		switch c.Name {
		case "data":
			w.Points = v.numbers(c)
			if len(w.Points)%2 != 0 {
				v.fail(c, "a wall's points are x,y pairs; %d numbers were given", len(w.Points))
			}
		case "type":
			w.Type = v.text(c)
		case "color":
			w.Color = v.text(c)
		case "door":
			w.Door = v.text(c)
		case "side":
			w.Side = v.text(c)
		case "generated":
			w.Generated = v.yes(c)
		default:
			w.Other = append(w.Other, c)
		}
	}
	return w
}

func readToken(v *values, el *Element) Token {
	t := Token{ID: el.Attr("id")}
	for _, c := range el.Children {
		switch c.Name {
		case "name":
			t.Name = v.text(c)
		case "x":
			t.X = v.float(c)
		case "y":
			t.Y = v.float(c)
		case "hidden":
			t.Hidden = v.yes(c)
		case "scale":
			t.Scale = v.float(c)
		case "size":
			t.Size = v.text(c)
		case "rotation":
			t.Rotation = v.float(c)
		case "elevation":
			t.Elevation = v.float(c)
		case "reference":
			t.Reference = first(c.Attr("ref"), v.text(c))
		case "asset":
			a := readAsset(v, c)
			t.Asset = &a
		case "vision":
			vis := readVision(v, c)
			t.Vision = &vis
		default:
			t.Other = append(t.Other, c)
		}
	}
	return t
}

func readVision(v *values, el *Element) Vision {
	vis := Vision{ID: el.Attr("id")}
	for _, c := range el.Children {
		switch c.Name {
		case "enabled":
			vis.Enabled = v.boolean(c)
		case "light":
			vis.Light = v.boolean(c)
		case "lightRadiusMin":
			vis.LightRadiusMin = v.float(c)
		case "lightRadiusMax":
			vis.LightRadiusMax = v.float(c)
		case "lightOpacity":
			vis.LightOpacity = v.optFloat(c)
		case "dark":
			vis.Dark = v.boolean(c)
		case "darkRadiusMin":
			vis.DarkRadiusMin = v.float(c)
		case "darkRadiusMax":
			vis.DarkRadiusMax = v.float(c)
		default:
			vis.Other = append(vis.Other, c)
		}
	}
	return vis
}

func readDrawing(v *values, el *Element) Drawing {
	d := Drawing{ID: el.Attr("id")}
	for _, c := range el.Children {
		switch c.Name {
		case "layer":
			d.Layer = v.text(c)
		case "shape":
			d.Shape = v.text(c)
		case "strokeWidth":
			d.StrokeWidth = v.float(c)
		case "strokeColor":
			d.StrokeColor = v.text(c)
		case "fillColor":
			d.FillColor = v.text(c)
		case "opacity":
			d.Opacity = v.optFloat(c)
		case "data":
			d.Points = v.numbers(c)
		default:
			d.Other = append(d.Other, c)
		}
	}
	return d
}

func readComponent(v *values, el *Element) Component {
	comp := Component{Params: map[string]string{}}
	for _, c := range el.Children {
		switch c.Name {
		case "type":
			comp.Type = v.text(c)
		case "enabled":
			comp.Enabled = v.boolean(c)
		default:
			comp.Params[c.Name] = v.text(c)
		}
	}
	return comp
}
