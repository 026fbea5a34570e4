// The technician's side menu (SPEC.md section 2): a chunk of its own, fetched when the menu first opens.
import { Link as RouterLink } from 'react-router';
import {
  Box,
  Divider,
  Drawer,
  FormControlLabel,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Switch,
} from '@mui/material';
import { SIDE_DRAWER_WIDTH } from '@novus/domain/constants';
import { ALTO_CONTRASTE_LABEL } from './contraste';

export interface DrawerEntry {
  label: string;
  path: string;
}

export function MenuDrawer({
  id,
  open,
  entries,
  onClose,
  altoContraste,
  onAltoContrasteChange,
}: {
  id: string;
  open: boolean;
  entries: readonly DrawerEntry[];
  onClose: () => void;
  altoContraste: boolean;
  onAltoContrasteChange: (on: boolean) => void;
}) {
  return (
    <Drawer
      id={id}
      variant="temporary"
      open={open}
      onClose={onClose}
      // the drawer's paper is a dialog (role="dialog"), and a dialog needs a name
      slotProps={{ paper: { 'aria-label': 'Menu' } }}
      sx={{ '& .MuiDrawer-paper': { width: SIDE_DRAWER_WIDTH } }}
    >
      <Box component="nav" aria-label="Menu lateral">
        <List>
          {entries.map((entry) => (
            <ListItem key={entry.path} disablePadding>
              <ListItemButton component={RouterLink} to={entry.path} onClick={onClose}>
                <ListItemText primary={entry.label} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </Box>
      <Divider />
      {/* Outdoors (issue 26): stays open, so the technician sees the screen change and can turn it back. */}
      <FormControlLabel
        control={
          <Switch checked={altoContraste} onChange={(event) => onAltoContrasteChange(event.target.checked)} />
        }
        label={ALTO_CONTRASTE_LABEL}
        labelPlacement="start"
        sx={{ mx: 0, px: 2, minHeight: 56, justifyContent: 'space-between' }}
      />
    </Drawer>
  );
}
