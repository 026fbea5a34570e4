// The technician's side menu (SPEC.md section 2): a chunk of its own, fetched when the menu first opens.
import { Link as RouterLink } from 'react-router';
import { Box, Drawer, List, ListItem, ListItemButton, ListItemText } from '@mui/material';
import { SIDE_DRAWER_WIDTH } from '@novus/domain/constants';

export interface DrawerEntry {
  label: string;
  path: string;
}

export function MenuDrawer({
  id,
  open,
  entries,
  onClose,
}: {
  id: string;
  open: boolean;
  entries: readonly DrawerEntry[];
  onClose: () => void;
}) {
  return (
    <Drawer
      id={id}
      variant="temporary"
      open={open}
      onClose={onClose}
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
    </Drawer>
  );
}
