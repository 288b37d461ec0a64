module.exports = require('./temp-guard').setup;
