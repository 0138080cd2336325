//! JSON values between Python and Rust: rule maps in, observations out.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::IntoPyObjectExt;

/// A JSON value of Python's: `None`, bool, int, float, str, list or dict with str keys.
pub fn to_json(value: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    use serde_json::Value;
    if value.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = value.extract::<bool>() {
        return Ok(Value::Bool(b));
    }
    if let Ok(i) = value.extract::<i64>() {
        return Ok(Value::from(i));
    }
    if let Ok(u) = value.extract::<u64>() {
        return Ok(Value::from(u));
    }
    if let Ok(f) = value.extract::<f64>() {
        return Ok(Value::from(f));
    }
    if let Ok(s) = value.extract::<String>() {
        return Ok(Value::String(s));
    }
    if let Ok(list) = value.downcast::<PyList>() {
        return list
            .iter()
            .map(|v| to_json(&v))
            .collect::<PyResult<_>>()
            .map(Value::Array);
    }
    if let Ok(dict) = value.downcast::<PyDict>() {
        let mut map = serde_json::Map::new();
        for (k, v) in dict.iter() {
            map.insert(k.extract::<String>()?, to_json(&v)?);
        }
        return Ok(Value::Object(map));
    }
    Err(PyValueError::new_err(format!(
        "rules: {value} is not a JSON value (None, bool, int, float, str, list or dict)"
    )))
}

/// A JSON value as the Python value `json.loads` would give.
pub fn from_json(py: Python<'_>, value: &serde_json::Value) -> PyResult<PyObject> {
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_py_any(py)?,
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_py_any(py)?,
            (None, Some(u)) => u.into_py_any(py)?,
            _ => n.as_f64().unwrap_or(f64::NAN).into_py_any(py)?,
        },
        Value::String(s) => s.into_py_any(py)?,
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(from_json(py, item)?)?;
            }
            list.into_any().unbind()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, from_json(py, v)?)?;
            }
            dict.into_any().unbind()
        }
    })
}

/// A rule map from an optional Python dict.
pub fn rule_map(rules: Option<&Bound<'_, PyDict>>) -> PyResult<bailab::game::RuleMap> {
    match rules {
        Some(d) => match to_json(d.as_any())? {
            serde_json::Value::Object(map) => Ok(map),
            _ => unreachable!("a dict reads as a JSON object"),
        },
        None => Ok(bailab::game::RuleMap::new()),
    }
}
